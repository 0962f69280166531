/* photomap's page script: the list (a page of entries at a time) and the map with clustered
   markers and MapKit-style callouts, from the annotations embedded in the page; offline, the
   Natural Earth outline at world zooms and the names of nearby places closer in. Text only ever
   enters the DOM through textContent; links only when they are relative or http(s). */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('photomap-annotations').textContent);
  var body = document.body;
  var map = null;
  var entries = data.entries;
  /* A pre-clustered page (data.clusters) holds its first `listChunk` entries; the others are in list
     files beside it, `{lists}/{n}.js` with entries from n × listChunk on, loaded when the list
     reaches them. */
  var lists = data.clusters && data.clusters.lists ? data.clusters : null;
  var total = lists ? lists.total : entries.id.length;
  var chunkSize = lists ? lists.listChunk : Math.max(total, 1);
  var TEXT_FIELDS = ['kind', 'title', 'subtitle', 'thumbnail', 'link', 'owner', 'license', 'licenseURL', 'flickr'];

  /* A text column (PageEntries.swift): null, a shared value (its NUL standing for the entry's id),
     or the entry's own text between the column's prefix and suffix. */
  function column(spec, ids) {
    return function (i) {
      var row = spec ? spec.rows[i] : null;
      if (row === null || row === undefined) return null;
      if (typeof row === 'number') return spec.table[row].split('\u0000').join(ids[i]);
      return spec.prefix + row + spec.suffix;
    };
  }

  /* Entries' columns (the page's, or a list file's) with a reader for each text field. */
  function chunk(columns) {
    var fields = {};
    TEXT_FIELDS.forEach(function (name) { fields[name] = column(columns[name], columns.id); });
    return { columns: columns, fields: fields };
  }
  var chunks = [chunk(entries)];

  /* Entry i's properties, as a callout or list item wants them (its list file loaded). */
  function entry(i) {
    var part = chunks[Math.floor(i / chunkSize)], k = i % chunkSize, columns = part.columns;
    var properties = {
      id: columns.id[k], count: columns.photos ? columns.photos[k] : null, located: columns.lat[k] !== null
    };
    TEXT_FIELDS.forEach(function (name) { properties[name] = part.fields[name](k); });
    return properties;
  }

  /* Calls done(true) once entries from..to-1 are at hand, loading the list files that hold them as
     scripts (file:// pages cannot fetch); done(false) if one of them cannot be loaded. */
  var waiting = [], loading = {};
  function withEntries(from, to, done) {
    var missing = [];
    for (var n = Math.floor(from / chunkSize); n <= Math.floor((to - 1) / chunkSize); n++) {
      if (!chunks[n]) missing.push(n);
    }
    if (!missing.length) return done(true);
    waiting.push({ missing: missing, done: done });
    missing.forEach(function (n) {
      if (loading[n]) return;
      var script = loading[n] = document.createElement('script');
      // Loaded (it has run by then) or not found: either way, a file that gave no entries failed.
      function finished() {
        delete loading[n];
        if (!chunks[n]) { script.remove(); settle(n); }
      }
      script.addEventListener('load', finished);
      script.addEventListener('error', finished);
      script.src = lists.lists + '/' + n + '.js';
      document.body.appendChild(script);
    });
  }

  /* Waiters for list file n: those with all their files done, and all of them when n failed. */
  function settle(failed) {
    waiting = waiting.filter(function (waiter) {
      var broken = waiter.missing.indexOf(failed) >= 0;
      if (!broken && !waiter.missing.every(function (n) { return chunks[n]; })) return true;
      waiter.done(!broken);
      return false;
    });
  }

  /* A list file: list file n's columns, kept only when they are what the page expects there. */
  window.photomapList = function (n, columns) {
    var expected = Math.min(chunkSize, total - n * chunkSize);
    if (!lists || chunks[n] || n !== Math.floor(n) || n < 1 || expected < 1) return;
    if (!columns || !columns.id || columns.id.length !== expected) return;
    chunks[n] = chunk(columns);
    settle(null);
  };

  function safeLink(link) {
    if (typeof link !== 'string') return null;
    link = link.trim();
    // Backslashes and control characters have no place in links photomap writes.
    if (link === '' || /[\\\u0000-\u001f]/.test(link)) return null;
    if (/^https?:\/\//i.test(link)) return link;
    // Relative links only: no scheme (javascript:, data:), no protocol-relative //host.
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.indexOf('//') === 0) return null;
    return link;
  }

  /* An absolute http(s) link, or null: credits link only out to the web. */
  function webLink(link) {
    link = safeLink(link);
    return link && /^https?:\/\//i.test(link) ? link : null;
  }

  /* "1 photo", "2 photos": as Quantity.words says counts in the pages' HTML. */
  function counted(count, one, many) {
    return count + ' ' + (count === 1 ? one : many);
  }

  /* What a marker, callout or list entry is, in one line for a screen reader: title, subtitle, photos. */
  function spoken(properties) {
    var parts = [properties.title];
    if (properties.subtitle) parts.push(properties.subtitle);
    if (properties.count) parts.push(counted(properties.count, 'photo', 'photos'));
    return parts.join(', ');
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* The callout: thumbnail on the left (loaded when the callout opens), title and subtitle,
     a disclosure link on the right. A dialog named for what it shows, focused when it opens. */
  function callout(properties) {
    var box = element('div', 'callout');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', spoken(properties));
    box.tabIndex = -1;
    var thumb = element('img', 'callout-thumb');
    thumb.alt = '';
    thumb.width = 75;
    thumb.height = 75;
    thumb.src = data.placeholder;
    if (properties.thumbnail) thumb.setAttribute('data-src', properties.thumbnail);
    thumb.addEventListener('error', function () {
      if (thumb.getAttribute('src') !== data.placeholder) thumb.src = data.placeholder;
    });
    if (properties.kind === 'photo' || properties.thumbnail) box.appendChild(thumb);
    var text = element('div', 'callout-text');
    text.appendChild(element('div', 'callout-title', properties.title));
    if (properties.subtitle) text.appendChild(element('div', 'callout-subtitle', properties.subtitle));
    if (properties.count) text.appendChild(element('div', 'callout-count', counted(properties.count, 'photo', 'photos')));
    var credit = creditLine(properties);
    if (credit) text.appendChild(credit);
    box.appendChild(text);
    var link = safeLink(properties.link);
    if (link) {
      var disclosure = element('a', 'callout-disclosure', '\u203A');
      disclosure.href = link;
      disclosure.title = properties.kind === 'place' ? 'Photos of this place' : 'Open the photo';
      disclosure.setAttribute('aria-label', disclosure.title);
      if (/^https?:/i.test(link)) disclosure.rel = 'noopener noreferrer';
      box.appendChild(disclosure);
    }
    return box;
  }

  /* A photo's owner, licence and link back to its page on Flickr, as Flickr's rules ask. */
  function creditLine(properties, tag, className) {
    if (properties.kind !== 'photo') return null;
    var line = element(tag || 'div', className || 'callout-credit'), parts = [];
    if (properties.owner) parts.push(document.createTextNode('by ' + properties.owner));
    if (properties.license) {
      var licence = webLink(properties.licenseURL);
      if (licence) {
        var deed = element('a', null, properties.license);
        deed.href = licence;
        deed.rel = 'license noopener noreferrer';
        parts.push(deed);
      } else {
        parts.push(document.createTextNode(properties.license));
      }
    }
    var flickr = webLink(properties.flickr);
    if (flickr) {
      var back = element('a', 'flickr', 'View on Flickr');
      back.href = flickr;
      back.rel = 'noopener';
      parts.push(back);
    }
    if (!parts.length) return null;
    parts.forEach(function (part, index) {
      if (index) line.appendChild(document.createTextNode(' \u00b7 '));
      line.appendChild(part);
    });
    return line;
  }

  function loadThumbnail(popup) {
    var thumb = popup.getElement() && popup.getElement().querySelector('img.callout-thumb[data-src]');
    if (thumb) {
      thumb.src = thumb.getAttribute('data-src');
      thumb.removeAttribute('data-src');
    }
  }

  var pin = L.divIcon({ className: 'photomap-pin', iconSize: [14, 14], iconAnchor: [7, 7], popupAnchor: [0, -8] });
  var resultPin = L.divIcon({ className: 'photomap-pin result', iconSize: [14, 14], iconAnchor: [7, 7], popupAnchor: [0, -8] });

  /* A marker's icon is a button for the keyboard (Tab reaches it, Enter opens it: Leaflet's
     `keyboard` option) named for screen readers; set each time Leaflet makes the icon. */
  function labelled(marker, label) {
    marker.on('add', function () {
      var icon = marker.getElement();
      icon.setAttribute('role', 'button');
      icon.setAttribute('aria-label', label);
    });
    return marker;
  }

  /* A marker whose callout shows `properties`. The open callout takes the focus; when it closes with
     the focus inside (Escape, its close button; a closing callout fades out, still holding it) or
     lost with it, the focus goes back to the marker. */
  function calloutMarker(at, properties, icon) {
    var marker = labelled(L.marker(at, { icon: icon || pin, title: properties.title, keyboard: true }), spoken(properties));
    marker.bindPopup(function () { return callout(properties); }, { minWidth: 220, maxWidth: 320 });
    marker.on('popupopen', function (event) {
      var popup = event.popup.getElement(), close = popup.querySelector('.leaflet-popup-close-button');
      if (close) {
        close.setAttribute('role', 'button');
        close.setAttribute('aria-label', 'Close the callout');
      }
      var box = popup.querySelector('.callout');
      if (box) box.focus({ preventScroll: true });
    });
    marker.on('popupclose', function (event) {
      var icon = marker.getElement(), focused = document.activeElement;
      var lost = !focused || focused === document.body || event.popup.getElement().contains(focused);
      if (icon && lost) icon.focus({ preventScroll: true });
    });
    return marker;
  }

  /* Escape closes the open callout wherever the focus is in the map (Leaflet's own Escape works only
     while the map itself has the focus). */
  function closeCalloutsOnEscape(target) {
    target.getContainer().addEventListener('keydown', function (event) {
      if (event.key !== 'Escape' || !target.getPane('popupPane').firstChild) return;
      target.closePopup();
      event.stopPropagation();
    });
  }

  /* A marker for a GeoJSON feature (the served pages' search results), drawn apart from the page's own. */
  function markerFor(feature) {
    var c = feature.geometry.coordinates;
    return calloutMarker([c[1], c[0]], feature.properties, resultPin);
  }

  /* Natural Earth's 1:110m outline is right for a world view and wrong closer in (its coast cuts
     through Manhattan as a straight wedge): it is drawn up to OUTLINE_ZOOM, and from LABEL_ZOOM on
     the map names the places around the page's annotations (GeoNames, embedded by photomap).
     Both lie under OpenStreetMap's tiles, which cover them when there is a network; offline the
     tiles fail quietly and the outline or the names show through. The outline's script (countries.js,
     beside this one) is loaded the first time the map is zoomed out that far. */
  var OUTLINE_ZOOM = 6, LABEL_ZOOM = 6, MOST_LABELS = 40;
  var basemapScript = document.currentScript.src.replace(/[^\/]*$/, 'countries.js');

  function addBasemap(target) {
    target.createPane('basemap').style.zIndex = 150;
    target.createPane('labels').style.zIndex = 160;  // above the outline, below the tiles (200)
    var outline = null, requested = false, labels = L.layerGroup().addTo(target);
    function update() {
      var zoom = target.getZoom(), world = zoom <= OUTLINE_ZOOM;
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
      // Past the outline's scale the ground is neither sea nor land: a neutral background.
      target.getContainer().style.background = world ? '#b8d4e8' : '#eceee8';
      nameCloseByPlaces(target, labels, zoom >= LABEL_ZOOM);
    }
    target.on('moveend', update);
    target.whenReady(update);
    L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19, attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
    }).addTo(target);
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

  /* Clustered markers, by 256-pixel tiles of the zoom shown: `source.tile(z, "x/y")` gives a tile's
     items, [lat, lon, count, the entry (its index in the page, or its properties) when alone], or
     null while it has none (yet). Each tile is one layer, added when it comes into view and removed
     when it leaves, so an open callout stays open while the map moves; tiles beyond the antimeridian
     are drawn on the world copy in view. */
  function clusteredLayer(source) {
    var shown = {}, hidden = false;

    function zoomLevel() { return Math.max(0, Math.min(Math.round(map.getZoom()), source.maxZoom)); }

    function tileGroup(z, items, shift) {
      var group = L.layerGroup();
      items.forEach(function (item) {
        var at = [item[0], item[1] + shift], marker, alone = item[3];
        if (item[2] === 1 && alone !== null && alone !== undefined) {
          marker = calloutMarker(at, typeof alone === 'number' ? entry(alone) : alone);
        } else {
          marker = clusterMarker(at, z, Number(item[2]));
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

    source.changed = refresh;
    map.on('moveend', refresh);
    refresh();
    /* Hidden while search results are shown in their place, and back when they are cleared. */
    return {
      hide: function () {
        hidden = true;
        Object.keys(shown).forEach(function (layerKey) { map.removeLayer(shown[layerKey]); delete shown[layerKey]; });
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
    var source = { maxZoom: index.maxZoom, changed: function () {}, tile: function (z, tile) {
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
    var byZoom = {};
    return { maxZoom: LAST_ZOOM, changed: function () {}, tile: function (z, tile) {
      if (!byZoom[z]) byZoom[z] = clustersAt(z, located);
      return byZoom[z][tile] || null;
    } };
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

  var ownMarkers = null;  // the page's own markers (clusteredLayer), once the map is shown

  function showMap() {
    if (map) { map.invalidateSize(); return; }
    var container = document.getElementById('map');
    if (!container) return;
    map = L.map(container, { worldCopyJump: true, zoomSnap: 0.5 });
    addBasemap(map);
    map.on('popupopen', function (event) { loadThumbnail(event.popup); });
    closeCalloutsOnEscape(map);
    if (data.clusters) {
      fitAround(2, data.clusters.bounds);
      ownMarkers = clusteredLayer(scriptTiles(data.clusters));
      ready('map', data.clusters.total);
      return;
    }
    var located = [], bounds = [[90, 180], [-90, -180]];
    for (var i = 0; i < total; i++) {
      var lat = entries.lat[i], lon = entries.lon[i];
      if (lat === null) continue;
      located.push(i);
      bounds = [[Math.min(bounds[0][0], lat), Math.min(bounds[0][1], lon)], [Math.max(bounds[1][0], lat), Math.max(bounds[1][1], lon)]];
    }
    fitAround(located.length, bounds);
    ownMarkers = clusteredLayer(pageTiles(located));
    ready('map', located.length);
  }

  /* The list or the map is ready, with `count` entries: said on the body (data-list-ready,
     data-map-ready) and as a User Timing mark (photomap-list-ready…), which bench/open_page.py reads. */
  function ready(view, count) {
    body.setAttribute('data-' + view + '-ready', String(count));
    if (window.performance && performance.mark) performance.mark('photomap-' + view + '-ready');
  }

  /* An entry of the list, as PageRenderer writes the first ones. */
  function listItem(i) {
    var properties = entry(i), item = element('li'), anchor = element('a');
    var link = safeLink(properties.link);
    if (link) anchor.href = link;
    if (properties.kind === 'photo') {
      var thumb = element('img');
      thumb.src = safeLink(properties.thumbnail) || data.placeholder;
      thumb.alt = '';
      thumb.width = 75;
      thumb.height = 75;
      thumb.loading = 'lazy';
      anchor.appendChild(thumb);
    }
    var text = element('span', 'text'), subtitle = element('span', 'subtitle', properties.subtitle);
    text.appendChild(element('span', 'title', properties.title));
    if (!properties.located) {
      subtitle.appendChild(document.createTextNode(' '));
      subtitle.appendChild(element('span', 'nogeo', '(no location)'));
    }
    text.appendChild(subtitle);
    anchor.appendChild(text);
    if (properties.count !== null && properties.count !== undefined) {
      anchor.appendChild(element('span', 'count', counted(properties.count, 'photo', 'photos')));
    }
    item.appendChild(anchor);
    var credit = creditLine(properties, 'span', 'credit');
    if (credit) item.appendChild(credit);
    return item;
  }

  /* The list shows `data.listPage` entries at a time: the page holds the first ones as HTML, the
     others are made from the data (or a list file's) when their page is shown. The pager's buttons
     and page number are ordinary controls (Tab, Enter); "#list-N" in the address keeps the page
     across visits. */
  var listPage = 0, listPages = 1;

  function listHash() { return listPage ? '#list-' + (listPage + 1) : '#list'; }

  function listPager(initial) {
    var list = document.querySelector('#list ul.annotations'), size = data.listPage || total;
    listPages = Math.max(1, Math.ceil(total / size));
    if (!list || listPages === 1) return ready('list', total);
    var nav = element('nav', 'pager'), status = element('output', 'pager-status'), number = element('input');
    nav.setAttribute('aria-label', 'Pages of the list');
    status.setAttribute('aria-live', 'polite');
    number.type = 'number';
    number.min = 1;
    number.max = listPages;
    number.setAttribute('aria-label', 'Page number, of ' + listPages);
    function button(label, name, page) {
      var control = element('button', null, label);
      control.type = 'button';
      control.setAttribute('data-page', name);
      control.addEventListener('click', function () { show(page()); });
      return control;
    }
    var first = button('\u00ab First', 'first', function () { return 0; });
    var previous = button('\u2039 Previous', 'previous', function () { return listPage - 1; });
    var next = button('Next \u203a', 'next', function () { return listPage + 1; });
    var last = button('Last \u00bb', 'last', function () { return listPages - 1; });
    var label = element('label', null, 'Page ');
    label.appendChild(number);
    label.appendChild(document.createTextNode(' of ' + listPages));
    [first, previous, label, next, last, status].forEach(function (part) { nav.appendChild(part); });
    number.addEventListener('change', function () { show(Number(number.value) - 1); });
    list.parentNode.insertBefore(nav, list.nextSibling);

    /* Shows a page of entries, once their list file is loaded (at once for the page's own). On
       opening, the first page's, already in the page, are kept as they are, and the address is
       left alone. */
    function show(page, opening) {
      var shown = listPage = Math.max(0, Math.min(isFinite(page) ? Math.floor(page) : 0, listPages - 1));
      var from = listPage * size, to = Math.min(total, from + size);
      var range = (from + 1) + '\u2013' + to + ' of ' + total;
      number.value = listPage + 1;
      first.disabled = previous.disabled = listPage === 0;
      next.disabled = last.disabled = listPage === listPages - 1;
      if (!opening) history.replaceState(null, '', listHash());
      status.textContent = 'Loading entries ' + range + '\u2026';
      withEntries(from, to, function (loaded) {
        if (shown !== listPage) return;  // another page was asked for meanwhile
        if (!loaded) {
          status.textContent = 'Entries ' + range + ' could not be loaded';
          return;
        }
        if (!opening || listPage) {
          var items = document.createDocumentFragment();
          for (var i = from; i < to; i++) items.appendChild(listItem(i));
          list.textContent = '';
          list.appendChild(items);
        }
        status.textContent = 'Entries ' + range;
        document.getElementById('list').scrollTop = 0;
        body.setAttribute('data-list-page', String(listPage + 1));
        if (opening) ready('list', total);
      });
    }
    show(initial, true);
  }

  function setView(view) {
    body.setAttribute('data-view', view);
    document.documentElement.setAttribute('data-view', view);
    var buttons = document.querySelectorAll('[data-show]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-show') === view));
    }
    if (view === 'map') showMap();
  }

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
     Results are drawn in their own colour in place of the page's own markers, until cleared. */
  function searchBox() {
    var api = body.getAttribute('data-api');
    var form = document.querySelector('form.search');
    if (!api || !form) return;
    var input = form.querySelector('input');
    var results = null, before = null;
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
      if (ownMarkers) ownMarkers.show();
      if (before) map.setView(before.centre, before.zoom);
      before = null;
      input.focus();
    }

    function show(features, place, query) {
      var located = (features || []).filter(function (f) { return f.geometry; });
      body.setAttribute('data-search-results', String(located.length));
      if (!located.length) return say('Nothing found for \u2018' + query + '\u2019', false);
      if (results) map.removeLayer(results);
      if (!before) before = { centre: map.getCenter(), zoom: map.getZoom() };
      if (ownMarkers) ownMarkers.hide();
      results = L.featureGroup(located.map(markerFor)).addTo(map);
      if (place) {
        var c = located[0].geometry.coordinates;
        map.fitBounds([[c[1] - data.span / 2, c[0] - data.span / 2], [c[1] + data.span / 2, c[0] + data.span / 2]]);
        say(located[0].properties.title, true);
        results.getLayers()[0].openPopup();
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
      showMap();
      if (!map) return;
      say('Searching\u2026', false);
      var centre = map.getCenter();
      var around = '&lat=' + centre.lat.toFixed(6) + '&lon=' + centre.lng.toFixed(6);
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

  var toggles = document.querySelectorAll('[data-show]');
  for (var i = 0; i < toggles.length; i++) {
    toggles[i].addEventListener('click', function (event) {
      var view = event.currentTarget.getAttribute('data-show');
      history.replaceState(null, '', view === 'map' ? '#map' : listHash());
      setView(view);
    });
  }
  if (body.getAttribute('data-view') === 'photo') {
    showMap();  // a photo page: its small map is always shown
  } else {
    var asked = /^#list(?:-(\d+))?$/.exec(location.hash);
    listPager(asked && asked[1] ? Number(asked[1]) - 1 : 0);
    var initial = location.hash === '#map' ? 'map' : asked ? 'list' : body.getAttribute('data-view');
    setView(initial || 'list');
  }
  searchBox();
})();
