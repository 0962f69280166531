// SPDX-License-Identifier: Apache-2.0
/* The places you have been: the visited countries and regions on a map of their own, shaded by their
   photos (the page's steps; the colours are photomap.css's, shared with the legend), regions above their
   country. Each is a link, reached by Tab like the page's others: a click or Enter opens the page of its
   photos, as its name in the list below does. Nothing on other pages. */
(function (photomap) {
  'use strict';

  var source = document.getElementById('photomap-visited');
  var container = document.getElementById('visited-map');
  if (!source || !container) return;
  var areas = JSON.parse(source.textContent).areas;
  var map = L.map(container, { zoomSnap: 0.5, scrollWheelZoom: false });
  photomap.addBasemap(map);
  var bounds = L.latLngBounds([]);

  function open(area) {
    window.location.assign(area.href);
  }

  // Bounded first: Leaflet draws layers (and makes their elements) only once the map has a view.
  var layers = areas.map(function (area) {
    var layer = L.geoJSON({ type: 'MultiPolygon', coordinates: area.polygons }, {
      style: { className: 'visited-area visited-' + area.level + ' visited-step-' + area.step, weight: 1 }
    });
    bounds.extend(layer.getBounds());
    return layer;
  });
  if (bounds.isValid()) map.fitBounds(bounds, { padding: [16, 16], maxZoom: 8 });
  else map.setView([20, 0], 2);
  layers.forEach(function (layer, i) {
    var area = areas[i];
    layer.addTo(map).on('click', function () { open(area); });
    layer.eachLayer(function (shape) {
      var path = shape.getElement();
      if (!path) return;
      path.setAttribute('tabindex', '0');
      path.setAttribute('role', 'link');
      path.setAttribute('aria-label', area.label);
      path.addEventListener('keydown', function (event) {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        open(area);
      });
    });
  });
  container.setAttribute('data-visited-ready', String(areas.length));
})(window.photomap);
