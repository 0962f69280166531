// SPDX-License-Identifier: Apache-2.0
/* The heat layer: where the page's photos (those in the timeline's range) are dense, drawn on a canvas
   under the markers (its clusters hidden meanwhile) from the page's own data, switched on and off by a
   "Heat" button on the map (aria-pressed). Each photo is a soft dot; the dots' summed darkness is
   coloured from blue (few) to red (the most in view), as heat maps of photo sites do. */
(function (photomap) {
  'use strict';

  var element = photomap.element;
  var RADIUS = 16, BLUR = 10;

  /* A soft dot, made once: drawn at each photo with its weight as opacity. */
  function dot() {
    var canvas = element('canvas'), size = 2 * (RADIUS + BLUR), context = canvas.getContext('2d');
    canvas.width = canvas.height = size;
    var gradient = context.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, RADIUS + BLUR);
    gradient.addColorStop(0, 'rgba(0,0,0,1)');
    gradient.addColorStop(RADIUS / (RADIUS + BLUR), 'rgba(0,0,0,0.35)');
    gradient.addColorStop(1, 'rgba(0,0,0,0)');
    context.fillStyle = gradient;
    context.fillRect(0, 0, size, size);
    return canvas;
  }

  /* 256 colours, a heat's darkness 0–255 to its colour. */
  function palette() {
    var canvas = element('canvas'), context = canvas.getContext('2d');
    canvas.width = 256;
    canvas.height = 1;
    var gradient = context.createLinearGradient(0, 0, 256, 0);
    [[0.25, '#2b4bd6'], [0.55, '#18b8c8'], [0.7, '#6fd12e'], [0.85, '#f2d21b'], [1, '#e0301e']].forEach(function (stop) {
      gradient.addColorStop(stop[0], stop[1]);
    });
    context.fillStyle = gradient;
    context.fillRect(0, 0, 256, 1);
    return context.getImageData(0, 0, 256, 1).data;
  }

  /* Adds the button and the layer to the Leaflet map `map`; `points()` gives [lat, lon, weight] of the
     photos to draw (for a pre-clustered page, its clusters in view). */
  photomap.heat = function (map, points) {
    if (document.body.getAttribute('data-view') === 'photo') return { redraw: function () {} };  // one photo: no density
    var pane = map.createPane('heat'), canvas = element('canvas', 'heat-canvas'), on = false, stamp = null, colours = null;
    pane.style.zIndex = 350;  // over the tiles (200), under the markers (600)
    pane.style.pointerEvents = 'none';
    canvas.setAttribute('aria-hidden', 'true');

    function draw() {
      if (!on) return;
      stamp = stamp || dot();
      colours = colours || palette();
      var size = map.getSize(), context = canvas.getContext('2d', { willReadFrequently: true });
      canvas.width = size.x;
      canvas.height = size.y;
      L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]));
      var bounds = map.getBounds().pad(0.1), list = points(), cells = {}, most = 1, half = stamp.width / 2;
      var placed = [];
      list.forEach(function (p) {
        if (!bounds.contains([p[0], p[1]]) || !p[2]) return;
        var at = map.latLngToContainerPoint([p[0], p[1]]), key = Math.floor(at.x / RADIUS) + ':' + Math.floor(at.y / RADIUS);
        cells[key] = (cells[key] || 0) + p[2];
        most = Math.max(most, cells[key]);
        placed.push([at.x, at.y, p[2]]);
      });
      placed.forEach(function (p) {
        context.globalAlpha = Math.min(1, Math.max(0.06, p[2] / most));
        context.drawImage(stamp, p[0] - half, p[1] - half);
      });
      var image = context.getImageData(0, 0, size.x, size.y), pixels = image.data;
      for (var i = 3; i < pixels.length; i += 4) {
        var darkness = pixels[i];
        if (!darkness) continue;
        pixels[i - 3] = colours[darkness * 4];
        pixels[i - 2] = colours[darkness * 4 + 1];
        pixels[i - 1] = colours[darkness * 4 + 2];
        pixels[i] = Math.min(255, 60 + darkness);
      }
      context.putImageData(image, 0, 0);
      document.body.setAttribute('data-heat-points', String(placed.length));
    }

    var Toggle = L.Control.extend({
      options: { position: 'topright' },
      onAdd: function () {
        var box = element('div', 'leaflet-bar heat-control'), button = element('button', 'heat-toggle', 'Heat');
        button.type = 'button';
        button.setAttribute('aria-pressed', 'false');
        button.title = 'Show where the photos are dense';
        L.DomEvent.disableClickPropagation(box);
        button.addEventListener('click', function () {
          on = !on;
          button.setAttribute('aria-pressed', String(on));
          // The clusters are hidden while the heat shows (photomap.css): its hottest spot is under the largest.
          map.getContainer().classList.toggle('heat-on', on);
          if (on) {
            pane.appendChild(canvas);
            draw();
          } else {
            canvas.remove();
            document.body.removeAttribute('data-heat-points');
          }
        });
        box.appendChild(button);
        return box;
      }
    });
    new Toggle().addTo(map);
    map.on('moveend resize', draw);
    // Drawn for one zoom, the heat would be out of place while the map zooms: it is drawn again after.
    map.on('zoomstart', function () { canvas.style.visibility = 'hidden'; });
    map.on('zoomend', function () { canvas.style.visibility = ''; });
    photomap.timeline.onChange(draw);
    return { redraw: draw };
  };
})(window.photomap);
