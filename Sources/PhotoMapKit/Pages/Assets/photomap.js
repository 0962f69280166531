// SPDX-License-Identifier: Apache-2.0
/* photomap's page script, run last of them: the list (a page of entries at a time) and the map with
   clustered markers and MapKit-style callouts, from the annotations embedded in the page; offline, the
   Natural Earth outline at world zooms and the names of nearby places closer in. The scripts before it
   (PageAssets.scripts, in order) each add one part to window.photomap; this one shows the view the
   address or the page asks for, and wires the view buttons and the search box. */
(function (photomap) {
  'use strict';

  var body = photomap.body;

  /* Shows the list or the map: said by data-view on <body> and on <html> (where first-view.js put the
     first one), which the stylesheet reads, and by the view buttons' aria-pressed. The view chosen
     with a button is remembered for the page (localStorage), so going back to it shows that view. */
  function setView(view) {
    body.setAttribute('data-view', view);
    document.documentElement.setAttribute('data-view', view);
    var buttons = document.querySelectorAll('[data-show]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-show') === view));
    }
    if (view === 'map') photomap.showMap();
  }

  var toggles = document.querySelectorAll('[data-show]');
  for (var i = 0; i < toggles.length; i++) {
    toggles[i].addEventListener('click', function (event) {
      var view = event.currentTarget.getAttribute('data-show');
      history.replaceState(null, '', view === 'map' ? '#map' : photomap.listHash());
      try {
        localStorage.setItem('photomap-view:' + location.pathname, view);
      } catch (error) {
        // Not remembered: the page opens at its default next time.
      }
      setView(view);
    });
  }
  if (body.getAttribute('data-view') === 'photo') {
    photomap.showMap();  // a photo page: its small map is always shown
  } else {
    var asked = /^#list(?:-(\d+))?$/.exec(location.hash);
    photomap.listPager(asked && asked[1] ? Number(asked[1]) - 1 : 0);
    // The address's view, else the one first-view.js found remembered, else the page's default.
    var initial = location.hash === '#map' ? 'map' : asked ? 'list'
      : document.documentElement.getAttribute('data-view') || body.getAttribute('data-view');
    setView(initial || 'list');
  }
  /* "Show 100 more" (a served place page with more photos than it shows) opens the same page with them,
     in the view shown, at the list's page where the new ones begin, over the timeline's range. */
  var more = document.querySelector('header a.more');
  if (more) {
    more.addEventListener('click', function () {
      var link = new URL(more.getAttribute('href'), location.href), range = new URLSearchParams(location.search);
      ['from', 'to'].forEach(function (name) { if (range.get(name)) link.searchParams.set(name, range.get(name)); });
      var listed = Math.floor(photomap.total / (photomap.data.listPage || photomap.total || 1)) + 1;
      link.hash = body.getAttribute('data-view') === 'map' ? '#map' : '#list-' + listed;
      more.href = link.href;
    });
  }
  photomap.searchBox(setView);
})(window.photomap);
