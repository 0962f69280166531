/* photomap's page script: the list/map toggle, the map with clustered markers and MapKit-style
   callouts, from the annotations embedded in the page. Text only ever enters the DOM through
   textContent; links only when they are relative or http(s). */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('photomap-annotations').textContent);
  var body = document.body;
  var map = null;

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

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* The callout: thumbnail on the left (loaded when the callout opens), title and subtitle,
     a disclosure link on the right. */
  function callout(properties) {
    var box = element('div', 'callout');
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
    if (properties.count) text.appendChild(element('div', 'callout-count', properties.count + ' photos'));
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
  function creditLine(properties) {
    if (properties.kind !== 'photo') return null;
    var line = element('div', 'callout-credit'), parts = [];
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

  function markerFor(feature) {
    var c = feature.geometry.coordinates;
    var marker = L.marker([c[1], c[0]], { icon: pin, title: feature.properties.title, keyboard: true });
    marker.bindPopup(function () { return callout(feature.properties); }, { minWidth: 220, maxWidth: 320 });
    return marker;
  }

  function addBasemap(target) {
    target.createPane('basemap').style.zIndex = 150;
    if (window.photomapBasemap) {
      L.geoJSON(window.photomapBasemap, {
        pane: 'basemap', interactive: false,
        style: { color: '#8a9a8a', weight: 0.8, fillColor: '#e8eddf', fillOpacity: 1 }
      }).addTo(target);
    }
    // With a network, OpenStreetMap's tiles cover the outline basemap; offline they fail quietly.
    L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19, attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
    }).addTo(target);
    target.attributionControl.addAttribution('Outlines: Natural Earth');
  }

  /* A pre-clustered page: per zoom, only the tiles in view are loaded (as script files, since file://
     pages cannot fetch), each holding clusters and single annotations made by photomap. Each tile is
     one layer, added when it comes into view and removed when it leaves, so an open callout stays
     open while the map moves; tiles beyond the antimeridian are drawn on the world copy in view. */
  function clusteredLayer(index) {
    var loaded = {}, requested = {}, available = {}, shown = {};
    Object.keys(index.tiles).forEach(function (z) {
      available[z] = {};
      index.tiles[z].forEach(function (tile) { available[z][tile] = true; });
    });

    function zoomLevel() { return Math.max(0, Math.min(Math.round(map.getZoom()), index.maxZoom)); }

    function tileGroup(z, items, shift) {
      var group = L.layerGroup();
      items.forEach(function (item) {
        var at = [item[0], item[1] + shift], marker;
        if (item[2] === 1 && item[3]) {
          marker = L.marker(at, { icon: pin, title: item[3].title });
          marker.bindPopup(function () { return callout(item[3]); }, { minWidth: 220, maxWidth: 320 });
        } else {
          var size = item[2] < 100 ? 30 : item[2] < 1000 ? 38 : 46;
          marker = L.marker(at, { icon: L.divIcon({
            className: 'cluster-' + size, iconSize: [size, size], html: element('div', 'cluster-bubble', String(Number(item[2])))
          }) });
          marker.on('click', function () { map.setView(at, z + 2); });
        }
        group.addLayer(marker);
      });
      return group;
    }

    function refresh() {
      var z = zoomLevel(), tiles = Math.pow(2, z), bounds = map.getBounds(), wanted = {};
      var northWest = map.project(bounds.getNorthWest(), z).divideBy(256).floor();
      var southEast = map.project(bounds.getSouthEast(), z).divideBy(256).floor();
      for (var x = northWest.x; x <= southEast.x; x++) {
        for (var y = Math.max(northWest.y, 0); y <= Math.min(southEast.y, tiles - 1); y++) {
          var tile = (((x % tiles) + tiles) % tiles) + '/' + y, key = z + '/' + tile;
          if (!available[z] || !available[z][tile]) continue;
          if (!loaded[key]) {
            if (!requested[key]) {
              requested[key] = true;
              var script = document.createElement('script');
              script.src = index.folder + '/' + key + '.js';
              document.body.appendChild(script);
            }
            continue;
          }
          var shift = 360 * Math.floor(x / tiles), layerKey = key + '@' + shift;
          wanted[layerKey] = true;
          if (!shown[layerKey]) shown[layerKey] = tileGroup(z, loaded[key], shift).addTo(map);
        }
      }
      Object.keys(shown).forEach(function (layerKey) {
        if (!wanted[layerKey]) { map.removeLayer(shown[layerKey]); delete shown[layerKey]; }
      });
    }

    window.photomapTile = function (z, x, y, items) {
      loaded[z + '/' + x + '/' + y] = items;
      refresh();
    };
    map.on('moveend', refresh);
    map.fitBounds(index.bounds, { padding: [30, 30], maxZoom: 16 });
    refresh();
    body.setAttribute('data-map-ready', String(index.total));
  }

  function showMap() {
    if (map) { map.invalidateSize(); return; }
    var container = document.getElementById('map');
    if (!container) return;
    map = L.map(container, { worldCopyJump: true, zoomSnap: 0.5 });
    container.style.background = '#b8d4e8';
    addBasemap(map);
    map.on('popupopen', function (event) { loadThumbnail(event.popup); });
    if (data.clusters) {
      clusteredLayer(data.clusters);
      return;
    }
    var located = data.features.filter(function (f) { return f.geometry; });
    var group = L.markerClusterGroup({ chunkedLoading: true, showCoverageOnHover: false, maxClusterRadius: 50 });
    group.addLayers(located.map(markerFor));
    map.addLayer(group);
    // MapKit's showAnnotations: the first view fits every annotation (or centres on the focus).
    if (data.focus) {
      var f = data.focus;
      map.fitBounds([[f[0] - data.span / 2, f[1] - data.span / 2], [f[0] + data.span / 2, f[1] + data.span / 2]]);
    } else if (located.length === 1) {
      var c = located[0].geometry.coordinates;
      map.fitBounds([[c[1] - data.span / 2, c[0] - data.span / 2], [c[1] + data.span / 2, c[0] + data.span / 2]]);
    } else if (located.length > 1) {
      map.fitBounds(group.getBounds(), { padding: [30, 30], maxZoom: 16 });
    } else {
      map.setView([20, 0], 2);
    }
    body.setAttribute('data-map-ready', String(located.length));
  }

  function setView(view) {
    body.setAttribute('data-view', view);
    var buttons = document.querySelectorAll('[data-show]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-show') === view));
    }
    if (view === 'map') showMap();
  }

  /* Served pages (body[data-api]) have a search box. A place, landmark or address the query names
     outright (the server's find: "match" exact) centres the map on it with one annotation; other words
     show every matching photo, place and landmark around the map's view, all at once (its search). */
  function searchBox() {
    var api = body.getAttribute('data-api');
    var form = document.querySelector('form.search');
    if (!api || !form) return;
    var input = form.querySelector('input');
    var status = form.querySelector('.search-status');
    var results = null;

    function ask(path, done) {
      var request = new XMLHttpRequest();
      request.open('GET', api + path);
      request.responseType = 'json';
      request.onload = function () { done(request.status === 200 ? request.response : null); };
      request.onerror = function () { done(null); };
      request.send();
    }

    function show(features, place, query) {
      if (results) map.removeLayer(results);
      var located = (features || []).filter(function (f) { return f.geometry; });
      results = L.featureGroup(located.map(markerFor)).addTo(map);
      body.setAttribute('data-search-results', String(located.length));
      if (!located.length) {
        status.textContent = 'Nothing found for \u201c' + query + '\u201d';
        return;
      }
      if (place) {
        var c = located[0].geometry.coordinates;
        map.fitBounds([[c[1] - data.span / 2, c[0] - data.span / 2], [c[1] + data.span / 2, c[0] + data.span / 2]]);
        results.getLayers()[0].openPopup();
        status.textContent = located[0].properties.title;
      } else {
        map.fitBounds(results.getBounds(), { padding: [30, 30], maxZoom: 16 });
        status.textContent = located.length + (located.length === 1 ? ' result' : ' results') + ' for \u201c' + query + '\u201d';
      }
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var query = input.value.trim();
      if (!query) return;
      if (body.getAttribute('data-view') === 'list') setView('map');
      showMap();
      if (!map) return;
      status.textContent = 'Searching\u2026';
      var centre = map.getCenter();
      var around = '&lat=' + centre.lat.toFixed(6) + '&lon=' + centre.lng.toFixed(6);
      ask('/find?q=' + encodeURIComponent(query) + around, function (found) {
        if (found && found.match === 'exact' && found.features.length) return show(found.features, true, query);
        // Half the view's diagonal: what is on screen, or close to it.
        var radius = Math.max(0.5, Math.min(centre.distanceTo(map.getBounds().getNorthEast()) / 1000, 20000));
        ask('/search?q=' + encodeURIComponent(query) + around + '&radius=' + radius.toFixed(3), function (hits) {
          if (!hits) {
            status.textContent = 'The search failed';
            return;
          }
          show(hits.features, false, query);
        });
      });
    });
  }

  var toggles = document.querySelectorAll('[data-show]');
  for (var i = 0; i < toggles.length; i++) {
    toggles[i].addEventListener('click', function (event) {
      var view = event.currentTarget.getAttribute('data-show');
      history.replaceState(null, '', view === 'map' ? '#map' : '#list');
      setView(view);
    });
  }
  if (body.getAttribute('data-view') === 'photo') {
    showMap();  // a photo page: its small map is always shown
  } else {
    var initial = location.hash === '#map' ? 'map' : location.hash === '#list' ? 'list' : body.getAttribute('data-view');
    setView(initial || 'list');
  }
  searchBox();
})();
