// SPDX-License-Identifier: Apache-2.0
/* The search box of served pages: places named outright, and photos, places and landmarks around the
   map's view, through the server's API. */
(function (photomap) {
  'use strict';

  var data = photomap.data, body = photomap.body, counted = photomap.counted, markerFor = photomap.markerFor;

  /* The line under the search box: what is going on, and with results on the map their colour's
     swatch and a Clear button. Said politely to screen readers (the output is a live region). */
  function searchLegend(form, onClear) {
    var legend = form.querySelector('.search-legend'), status = form.querySelector('.search-status');
    var swatch = form.querySelector('.search-legend .swatch'), clear = form.querySelector('.search-clear');
    clear.addEventListener('click', onClear);
    return function say(text, withResults) {
      legend.hidden = !text;
      swatch.hidden = clear.hidden = !withResults;
      status.textContent = text;
    };
  }

  /* Served pages (body[data-api]) have a search box. A place, landmark or address the query names
     outright (the server's find: "match" exact) centres the map on it with one annotation; other words
     show every matching photo, place and landmark around the map's view, all at once (its search).
     Results are drawn in their own colour in place of the page's own markers, until cleared. `setView`
     turns the page to its map. */
  function searchBox(setView) {
    var api = body.getAttribute('data-api');
    var form = document.querySelector('form.search');
    if (!api || !form) return;
    var input = form.querySelector('input');
    var map = null, results = null, before = null, pending = null;
    var say = searchLegend(form, clear);

    function ask(path, done) {
      var request = new XMLHttpRequest();
      request.open('GET', api + path);
      request.responseType = 'json';
      request.onload = function () { done(request.status === 200 ? request.response : null); };
      request.onerror = function () { done(null); };
      request.send();
    }

    /* Back to the page's own markers, and to the view they were seen in. */
    function clear() {
      if (results) map.removeLayer(results);
      results = null;
      body.removeAttribute('data-search-results');
      say('', false);
      if (photomap.ownMarkers) photomap.ownMarkers.show();
      if (before) restore(before);
      before = null;
      input.focus();
    }

    /* Leaflet drops a setView asked for while a zoom animation runs (Clear pressed as the map still zooms
       to the results): the view is then restored when that zoom ends. */
    function restore(view) {
      pending = null;
      if (!map._animatingZoom) return map.setView(view.centre, view.zoom);
      pending = function () { restore(view); };
      map.once('zoomend', pending);
    }

    function show(features, place, query) {
      var located = (features || []).filter(function (f) { return f.geometry; });
      body.setAttribute('data-search-results', String(located.length));
      if (!located.length) return say('Nothing found for \u2018' + query + '\u2019', false);
      if (results) map.removeLayer(results);
      if (pending) map.off('zoomend', pending);
      pending = null;
      if (!before) before = { centre: map.getCenter(), zoom: map.getZoom() };
      if (photomap.ownMarkers) photomap.ownMarkers.hide();
      results = L.featureGroup(located.map(markerFor)).addTo(map);
      if (place) {
        var c = located[0].geometry.coordinates;
        map.fitBounds([[c[1] - data.span / 2, c[0] - data.span / 2], [c[1] + data.span / 2, c[0] + data.span / 2]]);
        say(located[0].properties.title, true);
        results.getLayers()[0].openPopup();
        // The owner's editor may put photos there (photomap-edit-many.js).
        body.dispatchEvent(new CustomEvent('photomap-found', { detail: { latitude: c[1], longitude: c[0], title: located[0].properties.title } }));
      } else {
        map.fitBounds(results.getBounds(), { padding: [30, 30], maxZoom: 16 });
        say(counted(located.length, 'result', 'results') + ' for \u2018' + query + '\u2019', true);
      }
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var query = input.value.trim();
      if (!query) return;
      if (body.getAttribute('data-view') === 'list') setView('map');
      map = photomap.showMap();
      if (!map) return;
      say('Searching\u2026', false);
      // The server takes a longitude from -180 to 180: a world copy's centre is said as the original's.
      var centre = map.getCenter(), at = centre.wrap();
      var around = '&lat=' + at.lat.toFixed(6) + '&lon=' + at.lng.toFixed(6);
      ask('/find?q=' + encodeURIComponent(query) + around, function (found) {
        if (found && found.match === 'exact' && found.features.length) return show(found.features, true, query);
        // Half the view's diagonal: what is on screen, or close to it.
        var radius = Math.max(0.5, Math.min(centre.distanceTo(map.getBounds().getNorthEast()) / 1000, 20000));
        ask('/search?q=' + encodeURIComponent(query) + around + '&radius=' + radius.toFixed(3), function (hits) {
          if (!hits) return say('The search failed', false);
          show(hits.features, false, query);
        });
      });
    });
  }

  photomap.searchBox = searchBox;
})(window.photomap);
