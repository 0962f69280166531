// SPDX-License-Identifier: Apache-2.0
/* The map view: Leaflet's map with the basemap, the page's clustered markers and their callouts, made
   the first time it is shown. */
(function (photomap) {
  'use strict';

  var data = photomap.data, entries = photomap.entries, total = photomap.total, ready = photomap.ready;
  var map = null;

  /* The first view, as MapKit's showAnnotations: the focus, or a lone annotation's surroundings,
     or every annotation (`bounds`, south-west and north-east corners) in view. */
  function fitAround(count, bounds) {
    var centre = data.focus || (count === 1 ? bounds[0] : null), half = data.span / 2;
    if (centre) {
      map.fitBounds([[centre[0] - half, centre[1] - half], [centre[0] + half, centre[1] + half]]);
    } else if (count > 1) {
      map.fitBounds(bounds, { padding: [30, 30], maxZoom: 16 });
    } else {
      map.setView([20, 0], 2);
    }
  }

  /* Shows the map, made the first time; the map, or null on a page without one. Its own markers are
     photomap.ownMarkers from then on (hidden while search results stand in their place). */
  function showMap() {
    if (map) { map.invalidateSize(); return map; }
    var container = document.getElementById('map');
    if (!container) return null;
    map = L.map(container, { worldCopyJump: true, zoomSnap: 0.5 });
    photomap.addBasemap(map);
    photomap.addTracks(map);
    map.on('popupopen', function (event) { photomap.loadThumbnail(event.popup); });
    photomap.closeCalloutsOnEscape(map);
    var clusters = photomap.clusters(map);
    if (data.tiles) {
      // The map of everything: the whole world, its clusters asked of the server a tile at a time.
      map.setView([20, 0], 2);
      photomap.ownMarkers = clusters.layer(clusters.apiTiles(data.tiles.api));
      ready('map', 0);
      return map;
    }
    if (data.clusters) {
      fitAround(2, data.clusters.bounds);
      var layer = photomap.ownMarkers = clusters.layer(clusters.scriptTiles(data.clusters));
      // Its photos' heat is that of its clusters in view, the only ones it holds.
      layer.watch(photomap.heat(map, layer.items).redraw);
      ready('map', data.clusters.total);
      return map;
    }
    var located = [], bounds = [[90, 180], [-90, -180]];
    for (var i = 0; i < total; i++) {
      var lat = entries.lat[i], lon = entries.lon[i];
      if (lat === null) continue;
      located.push(i);
      bounds = [[Math.min(bounds[0][0], lat), Math.min(bounds[0][1], lon)], [Math.max(bounds[1][0], lat), Math.max(bounds[1][1], lon)]];
    }
    fitAround(located.length, bounds);
    var markers = photomap.ownMarkers = clusters.layer(clusters.pageTiles(located));
    var heat = photomap.heat(map, function () {
      var timeline = photomap.timeline, points = [];
      located.forEach(function (i) {
        if (!entries.month || timeline.shows(entries.month[i])) points.push([entries.lat[i], entries.lon[i], 1]);
      });
      return points;
    });
    /* The entries' coordinates changed (the owner's edits, photomap-edit-many.js): drawn where they now are. */
    photomap.entriesMoved = function () {
      located.length = 0;
      for (var k = 0; k < total; k++) if (entries.lat[k] !== null) located.push(k);
      markers.redraw();
      heat.redraw();
    };
    ready('map', located.length);
    return map;
  }

  photomap.ownMarkers = null;
  photomap.showMap = showMap;
})(window.photomap);
