// SPDX-License-Identifier: Apache-2.0
/* The map's ground without a network. GSHHG's coasts (photomap-coasts.js) draw from the first zoom of
   their levels of detail (data.coasts, CoastTiles.levels: the one definition of where they start);
   wherever they draw nothing — below that zoom, between whole zooms before it (the map snaps to
   halves), where a written page holds no tile, on a page without coasts — Natural Earth's 1:110m
   outline does, so the map is never a blank field. The outline is right for a world view and wrong
   closer in (its coast cuts through Manhattan as a straight wedge), which is why the coasts take
   over where they can. From LABEL_ZOOM on the map names the places around the page's annotations
   (GeoNames, embedded by photomap), above the markers, until OpenStreetMap's tiles load (they name
   places themselves). Offline the tiles fail quietly and the ground shows through. The outline's
   script (countries.js, beside this one) is loaded the first time it is needed. */
(function (photomap) {
  'use strict';

  var data = photomap.data, element = photomap.element;
  var LABEL_ZOOM = 6, MOST_LABELS = 40;
  var basemapScript = document.currentScript.src.replace(/[^\/]*$/, 'countries.js');

  function addBasemap(target) {
    target.createPane('basemap').style.zIndex = 150;
    // Above the markers (600), under the callouts (700): a name is never hidden under a cluster.
    var labelPane = target.createPane('labels');
    labelPane.style.zIndex = 650;
    labelPane.style.pointerEvents = 'none';
    var outline = null, requested = false, labels = L.layerGroup().addTo(target);
    var drawCoasts = photomap.addCoasts(target);
    function update() {
      var zoom = target.getZoom(), world = !drawCoasts();
      if (world && !outline && window.photomapBasemap) {
        outline = L.geoJSON(window.photomapBasemap, {
          pane: 'basemap', interactive: false,
          style: { color: '#8a9a8a', weight: 0.8, fillColor: '#e8eddf', fillOpacity: 1 }
        });
      } else if (world && !requested) {
        requested = true;
        var script = document.createElement('script');
        script.src = basemapScript;
        script.addEventListener('load', update);
        document.body.appendChild(script);
      }
      if (outline && world !== target.hasLayer(outline)) world ? outline.addTo(target) : target.removeLayer(outline);
      // Under the coasts' tiles the ground between them is neither sea nor land: a neutral background.
      target.getContainer().style.background = world ? '#b8d4e8' : '#eceee8';
      nameCloseByPlaces(target, labels, zoom >= LABEL_ZOOM);
    }
    target.on('moveend', update);
    target.whenReady(update);
    L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19, attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
    }).once('tileload', function () { labelPane.style.display = 'none'; }).addTo(target);
    target.attributionControl.addAttribution('Outlines: Natural Earth');
    if ((data.labels || []).length) target.attributionControl.addAttribution('Places: GeoNames');
  }

  /* The page's places in view, most populous first, each where it does not overlap one already named. */
  function nameCloseByPlaces(target, layer, show) {
    layer.clearLayers();
    if (!show) return;
    var bounds = target.getBounds(), taken = [], places = data.labels || [];
    for (var i = 0; i < places.length && taken.length < MOST_LABELS; i++) {
      var place = places[i], at = L.latLng(place[1], place[2]);
      if (!bounds.contains(at)) continue;
      var point = target.latLngToContainerPoint(at), half = 4 + String(place[0]).length * 3.6;
      var box = [point.x - half, point.y - 9, point.x + half, point.y + 9];
      if (taken.some(function (other) { return box[0] < other[2] && other[0] < box[2] && box[1] < other[3] && other[1] < box[3]; })) continue;
      taken.push(box);
      L.marker(at, { pane: 'labels', interactive: false, keyboard: false, icon: L.divIcon({
        className: 'place-label', iconSize: [0, 0], html: element('span', null, String(place[0]))
      }) }).addTo(layer);
    }
  }

  photomap.addBasemap = addBasemap;
})(window.photomap);
