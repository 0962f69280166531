/* The page's markers, clustered by 256-pixel tiles of the zoom shown: from the page's own entries,
   clustered here by GridClusterer's rule, or from a pre-clustered page's tile files. */
(function (photomap) {
  'use strict';

  var data = photomap.data, entries = photomap.entries, entry = photomap.entry, element = photomap.element;
  var counted = photomap.counted, labelled = photomap.labelled, calloutMarker = photomap.calloutMarker;
  var timeline = photomap.timeline;

  /* The clustered markers of the Leaflet map `map`: `layer(source)` shows them, from `pageTiles` or
     `scriptTiles`. */
  photomap.clusters = function (map) {
    /* Clustered markers, by 256-pixel tiles of the zoom shown: `source.tile(z, "x/y")` gives a tile's
       items, [lat, lon, count, the entry (its index in the page, or its properties) when alone, its
       photos by month], or null while it has none (yet); the timeline's range counts them. Each tile is one layer, added when it comes into view and removed
       when it leaves, so an open callout stays open while the map moves; tiles beyond the antimeridian
       are drawn on the world copy in view. */
    function clusteredLayer(source) {
      var shown = {}, hidden = false;

      function zoomLevel() { return Math.max(0, Math.min(Math.round(map.getZoom()), source.maxZoom)); }

      function tileGroup(z, items, shift) {
        var group = L.layerGroup();
        items.forEach(function (item) {
          var at = [item[0], item[1] + shift], marker, alone = item[3];
          var count = source.counted ? timeline.count(item[4], Number(item[2])) : Number(item[2]);
          if (!count) return;
          if (item[2] === 1 && alone !== null && alone !== undefined) {
            marker = calloutMarker(at, typeof alone === 'number' ? entry(alone) : alone);
          } else {
            marker = clusterMarker(at, z, count);
          }
          group.addLayer(marker);
        });
        return group;
      }

      /* A cluster: a click or Enter zooms in on it; from the keyboard, the focus then goes to the marker
         nearest to where it was. */
      function clusterMarker(at, z, count) {
        var size = count < 100 ? 30 : count < 1000 ? 38 : 46;
        var marker = labelled(L.marker(at, { keyboard: true, icon: L.divIcon({
          className: 'cluster-' + size, iconSize: [size, size], html: element('div', 'cluster-bubble', String(count))
        }) }), counted(count, 'photo', 'photos') + ' here: zoom in');
        marker.on('click', function () { map.setView(at, z + 2); });
        marker.on('keypress', function (event) {
          if (event.originalEvent.key !== 'Enter') return;
          map.once('moveend', function () { focusNearest(map.latLngToContainerPoint(at)); });
          map.setView(at, z + 2);
        });
        return marker;
      }

      function focusNearest(point) {
        var best = null, distance = Infinity;
        Object.keys(shown).forEach(function (layerKey) {
          shown[layerKey].eachLayer(function (marker) {
            var d = map.latLngToContainerPoint(marker.getLatLng()).distanceTo(point);
            if (marker.getElement() && d < distance) { best = marker; distance = d; }
          });
        });
        // Tiles of a pre-clustered page may still be loading: the map itself keeps the focus meanwhile.
        (best ? best.getElement() : map.getContainer()).focus({ preventScroll: true });
      }

      function refresh() {
        if (hidden) return;
        var z = zoomLevel(), tiles = Math.pow(2, z), bounds = map.getBounds(), wanted = {};
        var northWest = map.project(bounds.getNorthWest(), z).divideBy(256).floor();
        var southEast = map.project(bounds.getSouthEast(), z).divideBy(256).floor();
        for (var x = northWest.x; x <= southEast.x; x++) {
          for (var y = Math.max(northWest.y, 0); y <= Math.min(southEast.y, tiles - 1); y++) {
            var tile = (((x % tiles) + tiles) % tiles) + '/' + y, items = source.tile(z, tile);
            if (!items) continue;
            var shift = 360 * Math.floor(x / tiles), layerKey = z + '/' + tile + '@' + shift;
            wanted[layerKey] = true;
            if (!shown[layerKey]) shown[layerKey] = tileGroup(z, items, shift).addTo(map);
          }
        }
        Object.keys(shown).forEach(function (layerKey) {
          if (!wanted[layerKey]) { map.removeLayer(shown[layerKey]); delete shown[layerKey]; }
        });
      }

      /* Every tile made again (the timeline's range changed). */
      function redraw() {
        Object.keys(shown).forEach(function (layerKey) { map.removeLayer(shown[layerKey]); delete shown[layerKey]; });
        refresh();
      }

      source.changed = refresh;
      map.on('moveend', refresh);
      timeline.onChange(function () {
        if (source.reset) source.reset();
        redraw();
      });
      refresh();
      /* Hidden while search results are shown in their place, and back when they are cleared. */
      return {
        hide: function () {
          hidden = true;
          redraw();
        },
        show: function () { hidden = false; refresh(); }
      };
    }

    /* A pre-clustered page's tiles (SiteBuilder, past its threshold), loaded as script files when in
       view, since file:// pages cannot fetch. */
    function scriptTiles(index) {
      var loaded = {}, requested = {}, available = {};
      Object.keys(index.tiles).forEach(function (z) {
        available[z] = {};
        index.tiles[z].forEach(function (tile) { available[z][tile] = true; });
      });
      var source = { maxZoom: index.maxZoom, counted: true, changed: function () {}, tile: function (z, tile) {
        var key = z + '/' + tile;
        if (!available[z] || !available[z][tile]) return null;
        if (!loaded[key] && !requested[key]) {
          requested[key] = true;
          var script = document.createElement('script');
          script.src = index.folder + '/' + key + '.js';
          document.body.appendChild(script);
        }
        return loaded[key] || null;
      } };
      window.photomapTile = function (z, x, y, items) {
        loaded[z + '/' + x + '/' + y] = items;
        source.changed();
      };
      return source;
    }

    /* The page's own located entries, clustered as GridClusterer clusters tiles: per zoom, those in
       one cell of a CLUSTER_RADIUS-pixel grid become one cluster at their mean position; at LAST_ZOOM
       each stands alone, those at one spot fanned out on a circle. A zoom is clustered when first shown
       (a few milliseconds for 10,000 entries), and only the markers in view are made. The radius and
       last zoom are the page's, written by GridClusterer. */
    var CLUSTER_RADIUS = data.cluster.radius, LAST_ZOOM = data.cluster.lastZoom;

    function pageTiles(located) {
      var byZoom = {}, shown = located;
      var source = {
        maxZoom: LAST_ZOOM, changed: function () {},
        tile: function (z, tile) {
          if (!byZoom[z]) byZoom[z] = clustersAt(z, shown);
          return byZoom[z][tile] || null;
        },
        /* The entries in the timeline's range, clustered again as each zoom is shown. */
        reset: function () {
          byZoom = {};
          shown = !entries.month ? located : located.filter(function (i) { return timeline.shows(entries.month[i]); });
        }
      };
      source.reset();
      return source;
    }

    /* Web Mercator pixels of a world `size` pixels wide, as Leaflet's map.project computes them, without
       making two objects per entry (for 10,000 entries the garbage cost more than the sums). */
    function projected(latitude, longitude, size) {
      var sine = Math.sin(Math.max(Math.min(latitude, 85.0511287798), -85.0511287798) * Math.PI / 180);
      return [(longitude + 180) / 360 * size, (0.5 - Math.log((1 + sine) / (1 - sine)) / (4 * Math.PI)) * size];
    }

    function clustersAt(z, located) {
      var size = 256 * Math.pow(2, z), last = Math.pow(2, z) - 1;
      var points = located.map(function (i) { return projected(entries.lat[i], entries.lon[i], size); });
      if (z === LAST_ZOOM) fanOut(points);
      var cells = {}, order = [], tiles = {};
      points.forEach(function (p, k) {
        var key = z === LAST_ZOOM ? k : Math.floor(p[0] / CLUSTER_RADIUS) + ':' + Math.floor(p[1] / CLUSTER_RADIUS);
        var cell = cells[key];
        if (!cell) order.push(cell = cells[key] = { x: 0, y: 0, count: 0, first: located[k] });
        cell.x += p[0];
        cell.y += p[1];
        cell.count++;
      });
      order.forEach(function (cell) {
        var x = cell.x / cell.count, y = cell.y / cell.count, at = map.unproject([x, y], z);
        var tile = Math.min(Math.max(Math.floor(x / 256), 0), last) + '/' + Math.min(Math.max(Math.floor(y / 256), 0), last);
        (tiles[tile] = tiles[tile] || []).push([at.lat, at.lng, cell.count, cell.count === 1 ? cell.first : null]);
      });
      return tiles;
    }

    /* Entries within 4 pixels of each other spread on a circle, far enough apart for a 14-pixel
       marker each (markercluster's "spiderfy", made ahead of time). */
    function fanOut(points) {
      var spots = {};
      points.forEach(function (p, k) {
        var key = Math.floor(p[0] / 4) + ':' + Math.floor(p[1] / 4);
        (spots[key] = spots[key] || []).push(k);
      });
      Object.keys(spots).forEach(function (key) {
        var members = spots[key];
        if (members.length < 2) return;
        var centre = points[members[0]], radius = Math.max(14, members.length * 16 / (2 * Math.PI));
        members.forEach(function (k, n) {
          var angle = 2 * Math.PI * n / members.length;
          points[k] = [centre[0] + radius * Math.cos(angle), centre[1] + radius * Math.sin(angle)];
        });
      });
    }

    return { layer: clusteredLayer, scriptTiles: scriptTiles, pageTiles: pageTiles };
  };
})(window.photomap);
