// SPDX-License-Identifier: Apache-2.0
/* The page's markers, clustered by 256-pixel tiles of the zoom shown: from the page's own entries,
   clustered here by GridClusterer's rule, or from a pre-clustered page's tile files. */
(function (photomap) {
  'use strict';

  var data = photomap.data, entries = photomap.entries, entry = photomap.entry, element = photomap.element;
  var counted = photomap.counted, labelled = photomap.labelled, calloutMarker = photomap.calloutMarker;
  var timeline = photomap.timeline, withCallout = photomap.withCallout;

  /* The clustered markers of the Leaflet map `map`: `layer(source)` shows them, from `pageTiles` or
     `scriptTiles`. */
  photomap.clusters = function (map) {
    /* Clustered markers, by 256-pixel tiles of the zoom shown: `source.tile(z, "x/y")` gives a tile's
       items, [lat, lon, count, the entry (its index in the page, or its properties) when alone, its
       photos by month, their indices in the page when it names them], or null while it has none (yet);
       the timeline's range counts them. Each tile is one layer, added when it comes into view and
       removed when it leaves, so an open callout stays open while the map moves; tiles beyond the
       antimeridian are drawn on the world copy in view. */
    function clusteredLayer(source) {
      var shown = {}, hidden = false, shownItems = {}, watchers = [], focusWaiting = null;

      function zoomLevel() { return Math.max(0, Math.min(Math.round(map.getZoom()), source.maxZoom)); }

      function tileGroup(z, items, shift) {
        var group = L.layerGroup();
        items.forEach(function (item) {
          var at = [item[0], item[1] + shift], marker, alone = item[3];
          var count = source.counted ? timeline.count(item[4], Number(item[2])) : Number(item[2]);
          if (!count) return;
          if (item[2] === 1 && alone !== null && alone !== undefined) {
            marker = calloutMarker(at, typeof alone === 'number' ? entry(alone) : alone);
            // The owner's editor makes a photo's own marker draggable (photomap-edit-many.js, -world.js):
            // given the entry's index on a page of entries, its properties on the map of everything.
            if (photomap.photoMarker) photomap.photoMarker(marker, alone);
          } else {
            marker = clusterMarker(at, z, count, item[5] || null);
          }
          group.addLayer(marker);
        });
        return group;
      }

      /* A cluster: a click or Enter opens its callout, which zooms in on it (from the keyboard, the focus
         then goes to the marker nearest to where it was) and, when the cluster names its photos, shows
         them as a grid. At the last zoom a cluster is photos at one spot: only the grid opens it. */
      function clusterMarker(at, z, count, members) {
        var size = count < 100 ? 30 : count < 1000 ? 38 : 46, here = counted(count, 'photo', 'photos') + ' here';
        var marker = labelled(L.marker(at, { keyboard: true, icon: L.divIcon({
          className: 'cluster-' + size, iconSize: [size, size], html: element('div', 'cluster-bubble', String(count))
        }) }), here);
        return withCallout(marker, function () {
          var box = element('div', 'callout cluster-callout'), actions = element('div', 'callout-actions');
          box.setAttribute('role', 'dialog');
          box.setAttribute('aria-label', here);
          box.tabIndex = -1;
          box.appendChild(element('div', 'callout-title', here));
          if (z < source.maxZoom) {
            var zoom = element('button', 'callout-zoom', 'Zoom in');
            zoom.type = 'button';
            zoom.addEventListener('click', function () {
              var fromKeyboard = zoom === document.activeElement;
              map.closePopup();
              if (fromKeyboard) map.once('moveend', function () { focusNearest(at); });
              map.setView(at, z + 2);
            });
            actions.appendChild(zoom);
          }
          if (members) {
            var grid = element('button', 'callout-grid', 'Show ' + counted(count, 'photo', 'photos'));
            grid.type = 'button';
            grid.addEventListener('click', function () {
              var icon = marker.getElement();
              map.closePopup();
              photomap.showGrid(members, count, icon);
            });
            actions.appendChild(grid);
          }
          box.appendChild(actions);
          return box;
        }, { minWidth: 200, maxWidth: 320 });
      }

      /* The marker nearest to `at` takes the focus. Tiles of a pre-clustered page may still be loading:
         the map itself keeps the focus meanwhile, and hands it on when they come (unless it moved on). */
      function focusNearest(at) {
        var best = null, distance = Infinity, point = map.latLngToContainerPoint(at);
        Object.keys(shown).forEach(function (layerKey) {
          shown[layerKey].eachLayer(function (marker) {
            var d = map.latLngToContainerPoint(marker.getLatLng()).distanceTo(point);
            if (marker.getElement() && d < distance) { best = marker; distance = d; }
          });
        });
        focusWaiting = best ? null : at;
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
            shownItems[layerKey] = { items: items, shift: shift };
          }
        }
        Object.keys(shown).forEach(function (layerKey) {
          if (wanted[layerKey]) return;
          // A keyboard user's marker taken away with its tile (the view moved on, a marker's own focus
          // panned it): the focus goes to the marker nearest to where it was, not to the page's body.
          shown[layerKey].eachLayer(function (marker) {
            if (marker.getElement() && marker.getElement() === document.activeElement) {
              focusWaiting = marker.getLatLng();
              map.getContainer().focus({ preventScroll: true });
            }
          });
          map.removeLayer(shown[layerKey]);
          delete shown[layerKey];
        });
        Object.keys(shownItems).forEach(function (layerKey) { if (!wanted[layerKey]) delete shownItems[layerKey]; });
        if (focusWaiting) {
          if (document.activeElement === map.getContainer()) focusNearest(focusWaiting); else focusWaiting = null;
        }
        watchers.forEach(function (watcher) { watcher(); });
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
        show: function () { hidden = false; refresh(); },
        /* Every tile made again from its source, whose entries moved. */
        redraw: function () {
          if (source.reset) source.reset();
          redraw();
        },
        /* The clusters in view, [lat, lon, photos in the timeline's range]. */
        items: function () {
          var all = [];
          Object.keys(shownItems).forEach(function (layerKey) {
            var part = shownItems[layerKey];
            part.items.forEach(function (item) {
              all.push([item[0], item[1] + part.shift, source.counted ? timeline.count(item[4], Number(item[2])) : Number(item[2])]);
            });
          });
          return all;
        },
        /* Calls `watcher()` each time the clusters in view change (a tile loaded, the map moved). */
        watch: function (watcher) { watchers.push(watcher); }
      };
    }

    /* A pre-clustered page's tiles (SiteBuilder, past its threshold), loaded as script files when in
       view, since file:// pages cannot fetch. Only tiles that exist are asked for: the page names them
       (`index.tiles`), or, on the map of everything, tells them by number (y·2^z + x, TileOccupancy.swift):
       a bitmap a zoom in the page, then a file a zoom, loaded when the map first shows it. */
    function scriptTiles(index) {
      var loaded = {}, requested = {}, available = {}, asked = {};
      function occupy(z, number) { available[z][(number % Math.pow(2, z)) + '/' + Math.floor(number / Math.pow(2, z))] = true; }
      Object.keys(index.tiles || {}).forEach(function (z) {
        available[z] = {};
        index.tiles[z].forEach(function (tile) { available[z][tile] = true; });
      });
      (index.occupied || []).forEach(function (bitmap, z) {
        available[z] = {};
        for (var number = 0; number < bitmap.length * 4; number++) {
          if ((parseInt(bitmap.charAt(number >> 2), 16) >> (number & 3)) & 1) occupy(z, number);
        }
      });
      window.photomapOccupied = function (z, steps) {
        var number = 0;
        available[z] = {};
        (steps ? steps.split(',') : []).forEach(function (step) { number += parseInt(step, 36); occupy(z, number); });
        source.changed();
      };
      var source = { maxZoom: index.maxZoom, counted: true, changed: function () {}, tile: function (z, tile) {
        var key = z + '/' + tile;
        if (!available[z] && index.occupiedFiles && !asked[z]) {
          asked[z] = true;
          var list = document.createElement('script');
          list.src = index.occupiedFiles + '/' + z + '.js';
          // A list that cannot be read (a file missing from a copied site) leaves the zoom empty, said once.
          list.onerror = function () {
            available[z] = {};
            console.warn('photomap: cannot read ' + list.src + '; this zoom shows no clusters');
          };
          document.body.appendChild(list);
        }
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

    /* The map of everything's tiles, asked of the server (`{api}/{z}/{x}/{y}.json`, MapTile.swift) when in
       view, over the timeline's range: each cluster the database made, a lone photo with its square and
       page. A tile asked for before the range changed is not shown after. */
    function apiTiles(api) {
      var loaded = {}, requested = {}, generation = 0;
      function month(code) { return code ? code.slice(0, 4) + '-' + code.slice(5, 7) : null; }
      function lone(cluster) {
        return { id: cluster.photo, kind: 'photo', title: 'Photo', located: true,
          subtitle: cluster.from ? 'Taken ' + month(cluster.from) : '',
          thumbnail: '/squares/' + encodeURIComponent(cluster.photo), link: '/photos/' + encodeURIComponent(cluster.photo) };
      }
      function range() {
        if (!timeline.filtering) return '';
        function code(m) { return String(Math.floor(m / 12)).padStart(4, '0') + '-' + String(m % 12 + 1).padStart(2, '0'); }
        return '?from=' + code(timeline.from) + '&to=' + code(timeline.to);
      }
      var source = { maxZoom: 22, changed: function () {}, tile: function (z, tile) {
        var key = z + '/' + tile, asked = generation;
        if (!requested[key]) {
          requested[key] = true;
          fetch(api + '/' + key + '.json' + range(), { credentials: 'same-origin' })
            .then(function (answer) { return answer.ok ? answer.json() : { clusters: [] }; })
            .then(function (answer) {
              if (asked !== generation) return;
              loaded[key] = answer.clusters.map(function (cluster) {
                return [cluster.latitude, cluster.longitude, cluster.count, cluster.count === 1 ? lone(cluster) : null, null, null];
              });
              source.changed();
            })
            .catch(function () { requested[key] = false; });
        }
        return loaded[key] || null;
      }, reset: function () { generation++; loaded = {}; requested = {}; } };
      return source;
    }

    /* The page's own located entries, clustered as GridClusterer clusters tiles: per zoom, those in
       one cell of a CLUSTER_RADIUS-pixel grid become one cluster at their mean position; at LAST_ZOOM
       each stands alone but those at one spot (a SPOT-pixel cell), which stay one cluster. A zoom is clustered when first shown
       (a few milliseconds for 10,000 entries), and only the markers in view are made. The radius and
       last zoom are the page's, written by GridClusterer. */
    var CLUSTER_RADIUS = data.cluster.radius, LAST_ZOOM = data.cluster.lastZoom, SPOT = data.cluster.spot;

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
      var size = 256 * Math.pow(2, z), last = Math.pow(2, z) - 1, cellSize = z === LAST_ZOOM ? SPOT : CLUSTER_RADIUS;
      var cells = {}, order = [], tiles = {};
      located.forEach(function (i) {
        var p = projected(entries.lat[i], entries.lon[i], size);
        var key = Math.floor(p[0] / cellSize) + ':' + Math.floor(p[1] / cellSize), cell = cells[key];
        if (!cell) order.push(cell = cells[key] = { x: 0, y: 0, count: 0, first: i, members: [] });
        cell.x += p[0];
        cell.y += p[1];
        cell.count++;
        cell.members.push(i);
      });
      order.forEach(function (cell) {
        var x = cell.x / cell.count, y = cell.y / cell.count, at = map.unproject([x, y], z);
        var tile = Math.min(Math.max(Math.floor(x / 256), 0), last) + '/' + Math.min(Math.max(Math.floor(y / 256), 0), last);
        (tiles[tile] = tiles[tile] || []).push([at.lat, at.lng, cell.count, cell.count === 1 ? cell.first : null,
          null, cell.count > 1 ? cell.members : null]);
      });
      return tiles;
    }

    return { layer: clusteredLayer, scriptTiles: scriptTiles, pageTiles: pageTiles, apiTiles: apiTiles };
  };
})(window.photomap);
