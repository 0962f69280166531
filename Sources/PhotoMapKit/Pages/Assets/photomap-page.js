// SPDX-License-Identifier: Apache-2.0
/* The page's data, shared by every page script through one namespace, window.photomap (the scripts
   run in order, deferred, this one first): the annotations embedded in the page as columns, the entries
   of a large list loaded from list files beside it as the list reaches them, and how the page says a
   view is ready. */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('photomap-annotations').textContent);
  var body = document.body;
  var entries = data.entries;
  /* A pre-clustered page (data.clusters) holds its first `listChunk` entries; the others are in list
     files beside it, `{lists}/{n}.js` with entries from n × listChunk on, loaded when the list
     reaches them. */
  var lists = data.clusters && data.clusters.lists ? data.clusters : null;
  var total = lists ? lists.total : entries.id.length;
  var chunkSize = lists ? lists.listChunk : Math.max(total, 1);
  var TEXT_FIELDS = [
    'kind', 'title', 'subtitle', 'thumbnail', 'link', 'owner', 'license', 'licenseURL', 'flickr', 'locationNote'
  ];

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
  /* Where the location of a photo the owner changed on this page now comes from, by id ("" for its own
     GPS or none): it stands in for the page's note (photomap-edit-many.js). */
  var locationNotes = {};

  /* Entry i's properties, as a callout or list item wants them (its list file loaded). */
  function entry(i) {
    var part = chunks[Math.floor(i / chunkSize)], k = i % chunkSize, columns = part.columns;
    var properties = {
      id: columns.id[k], count: columns.photos ? columns.photos[k] : null, located: columns.lat[k] !== null,
      month: columns.month ? columns.month[k] : null
    };
    TEXT_FIELDS.forEach(function (name) { properties[name] = part.fields[name](k); });
    if (Object.prototype.hasOwnProperty.call(locationNotes, properties.id)) {
      properties.locationNote = locationNotes[properties.id] || null;
    }
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

  /* The list or the map is ready, with `count` entries: said on the body (data-list-ready,
     data-map-ready) and as a User Timing mark (photomap-list-ready…), which bench/open_page.py reads. */
  function ready(view, count) {
    body.setAttribute('data-' + view + '-ready', String(count));
    if (window.performance && performance.mark) performance.mark('photomap-' + view + '-ready');
  }

  window.photomap = {
    /* The page's data (MapData), its body, its entries' columns and how many entries it has in all. */
    data: data, body: body, entries: entries, total: total,
    entry: entry, withEntries: withEntries, ready: ready, locationNotes: locationNotes
  };
})();
