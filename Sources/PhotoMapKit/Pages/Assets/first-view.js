// SPDX-License-Identifier: Apache-2.0
/* Loaded in the head, before the page is drawn: the view the address asks for (#map, #list, #list-N),
   else the one last chosen on this page (kept in localStorage by photomap.js), goes on <html> at once,
   so a page opened at its map never lays out and paints its list first (for a 10,000-photo page, a
   third of the time to its map). photomap.js keeps it up to date. */
(function () {
  'use strict';
  var asked = /^#(map|list)(?:-\d+)?$/.exec(location.hash), chosen = null;
  try {
    chosen = localStorage.getItem('photomap-view:' + location.pathname);
  } catch (error) {
    // Storage refused (a private window, a policy): the page's own default stands.
  }
  var view = asked ? asked[1] : chosen === 'map' || chosen === 'list' ? chosen : null;
  if (view) document.documentElement.setAttribute('data-view', view);
})();
