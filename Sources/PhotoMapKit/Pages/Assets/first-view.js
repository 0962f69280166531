/* Loaded in the head, before the page is drawn: the view the address asks for (#map, #list, #list-N)
   goes on <html> at once, so a page opened at its map never lays out and paints its list first
   (for a 10,000-photo page, a third of the time to its map). photomap.js keeps it up to date. */
(function () {
  'use strict';
  var asked = /^#(map|list)(?:-\d+)?$/.exec(location.hash);
  if (asked) document.documentElement.setAttribute('data-view', asked[1]);
})();
