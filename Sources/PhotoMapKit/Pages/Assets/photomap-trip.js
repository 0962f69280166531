// SPDX-License-Identifier: Apache-2.0
/* A trip's page: each day's own small map (MapData.days), with the day's way (drawn as the tracks are)
   under its photos, made as the page loads so that a printed page has them drawn. Nothing on other
   pages. */
(function (photomap) {
  'use strict';

  var data = photomap.data, entries = photomap.entries;
  if (!data.days) return;
  data.days.forEach(function (day) {
    var container = document.getElementById(day.map);
    if (!container) return;
    var map = L.map(container, { zoomSnap: 0.5, scrollWheelZoom: false });
    photomap.addBasemap(map);
    var bounds = [];
    if (day.tracks && day.tracks.lines.length) {
      var lines = photomap.trackPoints(day.tracks);
      L.polyline(lines, {
        interactive: false, color: '#c0392b', weight: 3, opacity: 0.75, className: 'photomap-track'
      }).addTo(map);
      lines.forEach(function (line) { bounds = bounds.concat(line); });
    }
    day.entries.forEach(function (i) {
      var at = [entries.lat[i], entries.lon[i]];
      bounds.push(at);
      L.circleMarker(at, {
        interactive: false, radius: 6, color: '#fff', weight: 2, fillColor: '#1f6feb', fillOpacity: 1,
        className: 'day-photo'
      }).addTo(map);
    });
    if (bounds.length) map.fitBounds(bounds, { padding: [20, 20], maxZoom: 14 });
    else map.setView([20, 0], 2);
    container.setAttribute('data-day-ready', String(day.entries.length));
  });
})(window.photomap);
