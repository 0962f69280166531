// SPDX-License-Identifier: Apache-2.0
/* The coasts from the first zoom of their levels of detail, offline: GSHHG's land, lakes, islands in
   lakes and ponds, filled, and its major rivers and borders, from tiles photomap cut and simplified for
   each level (data.coasts: the levels; on a written page, the tiles it holds). A tile is a script in
   coasts/ beside this one, calling photomapCoast, loaded the first time the map shows it. Water is each
   tile's rectangle under its land; a view with no tile to draw shows the world outline instead
   (photomap-basemap.js). Colours come from the style sheet (light and dark); everything lies under
   OpenStreetMap's tiles. */
(function (photomap) {
  'use strict';

  var coasts = photomap.data.coasts;
  var folder = document.currentScript.src.replace(/[^\/]*$/, 'coasts/');
  // By a feature's kind: 1 land, 2 lake, 3 island in a lake, 4 pond, 5 river, 6 border.
  var CLASSES = ['coast-water', 'coast-land', 'coast-water', 'coast-land', 'coast-water', 'coast-river', 'coast-border'];
  var MOST_TILES = 48;
  var loaded = {}, requested = {}, onLoad = [];

  window.photomapCoast = function (key, features) {
    loaded[key] = features;
    onLoad.forEach(function (update) { update(); });
  };

  /* A tile's layers: its water, then each kind of feature in the pane of its kind. */
  function tileLayers(level, key, features) {
    var spec = coasts.levels[level], scale = coasts.scale, side = spec[2], quantum = spec[3], overlap = spec[4];
    var xy = key.split('/'), west = xy[0] * side - 180 * scale, south = xy[1] * side - 90 * scale;
    var group = L.layerGroup(), byKind = {};
    group.addLayer(L.rectangle(
      [[(south - overlap) / scale, (west - overlap) / scale], [(south + side + overlap) / scale, (west + side + overlap) / scale]],
      { pane: 'coast0', className: CLASSES[0], stroke: false, fillOpacity: 1, interactive: false }));
    features.forEach(function (feature) {
      var x = feature[1], y = feature[2], points = [[(south + y * quantum) / scale, (west + x * quantum) / scale]];
      for (var i = 3; i + 1 < feature.length; i += 2) {
        x += feature[i];
        y += feature[i + 1];
        points.push([(south + y * quantum) / scale, (west + x * quantum) / scale]);
      }
      (byKind[feature[0]] = byKind[feature[0]] || []).push(points);
    });
    Object.keys(byKind).forEach(function (kind) {
      var options = { pane: 'coast' + kind, className: CLASSES[kind], interactive: false };
      if (kind <= 4) {
        options.stroke = false;
        options.fillOpacity = 1;
        // Each ring a polygon of its own: rings of one kind never overlap, and none is another's hole.
        group.addLayer(L.polygon(byKind[kind].map(function (ring) { return [ring]; }), options));
      } else {
        options.weight = kind === '5' ? 1.5 : 1;
        group.addLayer(L.polyline(byKind[kind], options));
      }
    });
    return group;
  }

  /* Draws the coasts of `target`'s zoom and view, loading the tiles not loaded yet; a function that does
     so again, answering whether there are coasts at this zoom. */
  function addCoasts(target) {
    if (!coasts) return function () { return false; };
    for (var kind = 0; kind < CLASSES.length; kind++) target.createPane('coast' + kind).style.zIndex = 151 + kind;
    target.attributionControl.addAttribution('Coasts: GSHHG');
    var listed = coasts.tiles && coasts.tiles.map(function (keys) {
      var set = {};
      keys.forEach(function (key) { set[key] = true; });
      return set;
    });
    var drawn = {};
    function update() {
      var zoom = Math.floor(target.getZoom()), level = -1, last = coasts.levels.length - 1;
      coasts.levels.forEach(function (spec, index) {
        if (zoom >= spec[0] && (zoom <= spec[1] || index === last)) level = index;
      });
      var wanted = {};
      if (level >= 0) {
        var side = coasts.levels[level][2] / coasts.scale, columns = Math.round(360 / side), rows = Math.round(180 / side);
        var bounds = target.getBounds();
        var x0 = Math.floor((bounds.getWest() + 180) / side), x1 = Math.floor((bounds.getEast() + 180) / side);
        var y0 = Math.max(0, Math.floor((bounds.getSouth() + 90) / side)), y1 = Math.min(rows - 1, Math.floor((bounds.getNorth() + 90) / side));
        for (var x = x0; x <= x1 && (x1 - x0 + 1) * (y1 - y0 + 1) <= MOST_TILES; x++) {
          for (var y = y0; y <= y1; y++) {
            var key = (((x % columns) + columns) % columns) + '/' + y;
            if (listed && !listed[level][key]) continue;
            wanted[level + '/' + key] = key;
          }
        }
      }
      Object.keys(drawn).forEach(function (name) {
        if (!(name in wanted)) { target.removeLayer(drawn[name]); delete drawn[name]; }
      });
      Object.keys(wanted).forEach(function (name) {
        if (loaded[name] && !drawn[name]) {
          drawn[name] = tileLayers(level, wanted[name], loaded[name]).addTo(target);
        } else if (!loaded[name] && !requested[name]) {
          requested[name] = true;
          var script = document.createElement('script');
          script.src = folder + name + '.js';
          document.body.appendChild(script);
        }
      });
      return level >= 0 && Object.keys(wanted).length > 0;
    }
    onLoad.push(update);
    return update;
  }

  photomap.addCoasts = addCoasts;
})(window.photomap);
