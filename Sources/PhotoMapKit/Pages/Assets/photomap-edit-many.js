// SPDX-License-Identifier: Apache-2.0
/* The owner's location editing of many photos at once, on a served page that lists imported photos (a
   place's page, the photos without a location). Nothing is added unless photomap.forOwner says the
   viewer is the owner: anyone else's page has no trace of it. Photos are selected by the boxes beside
   them in the list and in a cluster's grid, or all of the page's at once; "Set location" puts them at a
   spot clicked on the map, typed, moved with the arrow keys or found by the page's find box, "Same place
   as…" where another photo is, "Remove location" takes their location away, and "Undo" takes back the
   last changes. A photo's own marker can be dragged to where it belongs (the arrow keys do as much in
   "Set location"). "Select all" selects the photos the timeline's range shows. Each change shows at
   once: the markers move and the list says where the photos are. */
(function (photomap) {
  'use strict';

  var body = photomap.body, data = photomap.data, entries = photomap.entries;
  var made = photomap.made, button = photomap.button;
  var counted = photomap.counted, MOST = 500;  // LocationEditing.maximumPhotos: the most one POST names
  // Pages drawn from entries all in the page: not the map of everything (the server's tiles) nor a
  // pre-clustered page (tiles and lists in files), whose markers cannot follow a change.
  if (!body.getAttribute('data-api') || body.getAttribute('data-view') === 'photo' || data.tiles || data.clusters) return;

  var photos = {}, order = [];  // the page's imported photos: id → index among its entries
  for (var i = 0; i < photomap.total; i++) {
    if (photomap.entry(i).kind === 'photo' && /^local-[0-9a-f]+$/.test(entries.id[i])) {
      photos[entries.id[i]] = i;
      order.push(entries.id[i]);
    }
  }
  if (!order.length) return;

  /* The photo of a list item or a grid's square, by its link; null for anything else. */
  function photoOf(item) {
    var link = item.querySelector('a[href]');
    var id = link ? decodeURIComponent(link.getAttribute('href').split('/').pop() || '') : '';
    return Object.prototype.hasOwnProperty.call(photos, id) ? id : null;
  }

  function build(changes) {
    var selected = {}, notes = photomap.locationNotes, changed = 0, map = null, spot = photomap.spotEditor();
    var box = made('section', 'edit-many', null, { 'aria-label': 'Edit locations' });
    var bar = made('div', 'edit-many-bar');
    var picked = made('output', 'edit-picked', null, { 'aria-live': 'polite' });
    var all = button('edit-select-all', 'Select all ' + counted(order.length, 'photo', 'photos'));
    var none = button('edit-select-none', 'Select none');
    var set = button('edit-set', 'Set location\u2026', { 'aria-expanded': 'false' });
    var like = button('edit-like', 'Same place as\u2026', { 'aria-expanded': 'false' });
    var remove = button('edit-clear', 'Remove location');
    var undo = button('edit-undo', 'Undo', { disabled: '' });
    [picked, all, none, set, like, remove, undo].forEach(function (part) { bar.appendChild(part); });

    var setForm = made('form', 'edit-form edit-set-form', null, { hidden: '', 'aria-label': 'Set location' });
    var hint = made('p', 'edit-hint', 'Click the map, type the coordinates, find a place with the search box, ' +
      'or focus the marker and move it with the arrow keys (Shift: farther).');
    var apply = made('button', 'edit-apply', 'Apply', { type: 'submit' });
    var cancelSet = button('edit-cancel', 'Cancel');
    spot.fields.concat([hint, apply, cancelSet]).forEach(function (part) { setForm.appendChild(part); });

    var likeForm = made('form', 'edit-form edit-like-form', null, { hidden: '', 'aria-label': 'Same place as' });
    var modelLabel = made('label', 'edit-field', 'Photo whose place to use ');
    var model = made('select', 'edit-model', null, { name: 'like' });
    modelLabel.appendChild(model);
    var applyLike = made('button', 'edit-apply', 'Apply', { type: 'submit' });
    var cancelLike = button('edit-cancel', 'Cancel');
    [modelLabel, applyLike, cancelLike].forEach(function (part) { likeForm.appendChild(part); });

    var status = made('output', 'edit-status', null, { 'aria-live': 'polite' });
    [bar, setForm, likeForm, status].forEach(function (part) { box.appendChild(part); });
    var main = document.querySelector('main');
    main.insertBefore(box, main.firstChild);

    function chosen() { return order.filter(function (id) { return selected[id]; }); }

    /* Every box says whether its photo is selected, and the count says how many are. */
    function said() {
      var count = chosen().length, boxes = document.querySelectorAll('input.edit-pick');
      for (var k = 0; k < boxes.length; k++) boxes[k].checked = !!selected[boxes[k].getAttribute('data-photo')];
      picked.textContent = count ? counted(count, 'photo', 'photos') + ' selected' : 'No photos selected';
    }

    /* Where a list item's photo now is, once this page changed it. */
    function whereNow(item, id) {
      var subtitle = item.querySelector('.subtitle'), i = photos[id];
      if (!subtitle || !Object.prototype.hasOwnProperty.call(notes, id)) return;
      var nogeo = subtitle.querySelector('.nogeo'), note = subtitle.querySelector('.edit-where');
      if (entries.lat[i] === null) {
        if (note) note.remove();
        if (!nogeo) subtitle.appendChild(made('span', 'nogeo', ' (no location)'));
        return;
      }
      if (nogeo) nogeo.remove();
      if (!note) note = subtitle.appendChild(made('span', 'edit-where'));
      note.textContent = ' ' + entries.lat[i].toFixed(6) + ', ' + entries.lon[i].toFixed(6) +
        (notes[id] ? ' (' + notes[id] + ')' : '');
    }

    /* A list item or grid square gets its box (once), checked when its photo is selected. */
    function decorate(item) {
      var id = photoOf(item);
      if (!id) return;
      var pick = item.querySelector('input.edit-pick');
      if (!pick) {
        var title = photomap.entry(photos[id]).title || 'photo';
        pick = made('input', 'edit-pick', null, { type: 'checkbox', 'data-photo': id, 'aria-label': 'Select ' + title });
        pick.addEventListener('change', function () {
          if (pick.checked) selected[id] = true; else delete selected[id];
          said();
        });
        item.insertBefore(pick, item.firstChild);
        item.classList.add('edit-pickable');
      }
      pick.checked = !!selected[id];
      if (item.parentNode && item.parentNode.classList.contains('annotations')) whereNow(item, id);
    }

    function decorateAll(list) {
      var items = list.querySelectorAll(':scope > li');
      for (var k = 0; k < items.length; k++) decorate(items[k]);
    }

    /* A list (the page's, a grid's): its items decorated now and whenever they are made again. */
    function watch(list) {
      decorateAll(list);
      new MutationObserver(function () { decorateAll(list); }).observe(list, { childList: true });
    }

    /* A cluster's grid, made when first opened: its squares get boxes, its top "Select all shown". */
    function gridMade(dialog) {
      var grid = dialog.querySelector('ul.grid'), top = dialog.querySelector('.grid-top');
      if (!grid || !top || top.querySelector('.edit-select-shown')) return;
      var shown = button('edit-select-shown', 'Select all shown');
      shown.addEventListener('click', function () {
        var boxes = grid.querySelectorAll('input.edit-pick');
        for (var k = 0; k < boxes.length; k++) selected[boxes[k].getAttribute('data-photo')] = true;
        said();
      });
      top.insertBefore(shown, top.lastChild);
      watch(grid);
    }

    var list = document.querySelector('#list ul.annotations');
    if (list) watch(list);
    var grid = document.querySelector('dialog.grid-dialog');
    if (grid) gridMade(grid);
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        for (var k = 0; k < record.addedNodes.length; k++) {
          var node = record.addedNodes[k];
          if (node.nodeName === 'DIALOG' && node.classList.contains('grid-dialog')) gridMade(node);
        }
      });
    }).observe(body, { childList: true });

    /* The photos selected, or null (and the status says why) when there are none or too many. */
    function needed() {
      var ids = chosen();
      if (!ids.length) status.textContent = 'Select photos first: the boxes in the list or a cluster\u2019s grid, or \u201cSelect all\u201d.';
      else if (ids.length > MOST) status.textContent = 'Select at most ' + MOST + ' photos at once.';
      else return ids;
      return null;
    }

    function onMapClick(event) { spot.place(map, event.latlng); }

    function closeForms() {
      setForm.hidden = likeForm.hidden = true;
      set.setAttribute('aria-expanded', 'false');
      like.setAttribute('aria-expanded', 'false');
      if (map) map.off('click', onMapClick);
      spot.remove();
    }

    /* The photos answered, where they now are: the page's entries, its markers and its list follow. */
    function moved(answered) {
      answered.forEach(function (photo) {
        var i = photos[photo.id];
        if (i === undefined) return;
        var none = photo.latitude === null;
        entries.lat[i] = none ? null : Math.round(photo.latitude * 1e6) / 1e6;
        entries.lon[i] = none ? null : Math.round(photo.longitude * 1e6) / 1e6;
        notes[photo.id] = photo.locationNote || '';
      });
      if (!answered.length) return;
      if (photomap.entriesMoved) photomap.entriesMoved();
      if (list) decorateAll(list);
      body.setAttribute('data-locations-changed', String(++changed));
    }

    /* Sends `edit` for the photos selected; `what` says it done ("Moved", "Removed the location of"). */
    function send(edit, what, after) {
      var ids = needed();
      if (!ids) return;
      status.textContent = 'Saving\u2026';
      changes.apply(ids, edit, function (error, answered) {
        if (error) {
          status.textContent = 'Not saved: ' + error + '.';
          return;
        }
        moved(answered);
        status.textContent = what + ' ' + counted(ids.length, 'photo', 'photos') + '.';
        if (after) after();
      });
    }

    /* The page's photos the timeline's range shows (all of them when it shows the whole). */
    function inRange() {
      return order.filter(function (id) { return photomap.timeline.shows(entries.month ? entries.month[photos[id]] : null); });
    }
    function labelAll() { all.textContent = 'Select all ' + counted(inRange().length, 'photo', 'photos'); }
    photomap.timeline.onChange(labelAll);
    labelAll();
    all.addEventListener('click', function () {
      selected = {};
      inRange().forEach(function (id) { selected[id] = true; });
      said();
    });
    none.addEventListener('click', function () {
      selected = {};
      said();
    });

    set.addEventListener('click', function () {
      var ids = needed();
      if (!ids) return;
      closeForms();
      setForm.hidden = false;
      set.setAttribute('aria-expanded', 'true');
      var toMap = document.querySelector('[data-show="map"]');
      if (body.getAttribute('data-view') !== 'map' && toMap) toMap.click();
      map = photomap.showMap();
      if (!map) return;
      map.on('click', onMapClick);
      var from = ids.map(function (id) { return photos[id]; }).filter(function (k) { return entries.lat[k] !== null; })[0];
      var start = from === undefined ? map.getCenter() : L.latLng(entries.lat[from], entries.lon[from]);
      map.setView(start, map.getZoom(), { animate: false });
      spot.place(map, start);
      spot.markerElement().focus({ preventScroll: true });
      status.textContent = '';
    });
    spot.submits(setForm, status, function (edit) {
      send(edit, 'Moved', function () {
        closeForms();
        set.focus();
      });
    });
    spot.follows(setForm, status, function (title) { return 'Found ' + title + ': Apply puts the photos there.'; });

    like.addEventListener('click', function () {
      if (!needed()) return;
      closeForms();
      model.textContent = '';
      order.forEach(function (id) {
        var i = photos[id];
        if (entries.lat[i] === null) return;
        model.appendChild(made('option', null, photomap.entry(i).title + ' (' + entries.lat[i].toFixed(4) + ', ' +
          entries.lon[i].toFixed(4) + ')', { value: id }));
      });
      if (!model.options.length) {
        status.textContent = 'No photo on this page has a location to give.';
        return;
      }
      likeForm.hidden = false;
      like.setAttribute('aria-expanded', 'true');
      model.focus();
      status.textContent = '';
    });
    likeForm.addEventListener('submit', function (event) {
      event.preventDefault();
      send({ like: model.value }, 'Moved', function () {
        closeForms();
        like.focus();
      });
    });

    [cancelSet, cancelLike].forEach(function (cancel) {
      cancel.addEventListener('click', function () {
        var opener = setForm.hidden ? like : set;
        closeForms();
        status.textContent = 'Nothing changed.';
        opener.focus();
      });
    });
    remove.addEventListener('click', function () {
      closeForms();
      send({ clear: true }, 'Removed the location of');
    });

    changes.onChange(function (count) {
      undo.disabled = !count;
      undo.textContent = count ? 'Undo (' + count + ')' : 'Undo';
    });
    /* A photo's own marker (photomap-clusters.js asks as it makes one) can be dragged: dropped, the photo is
       set there, a change like any other; refused, the marker goes back where the photo is. */
    photomap.photoMarker = function (marker, i) {
      var id = typeof i === 'number' ? entries.id[i] : null;
      if (!Object.prototype.hasOwnProperty.call(photos, id)) return;
      marker.options.draggable = true;
      marker.on('dragend', function () {
        var at = marker.getLatLng().wrap(), title = photomap.entry(i).title || 'the photo';
        status.textContent = 'Saving\u2026';
        changes.apply([id], { latitude: Math.round(at.lat * 1e6) / 1e6, longitude: Math.round(at.lng * 1e6) / 1e6 },
          function (error, answered) {
            if (error) {
              status.textContent = 'Not saved: ' + error + '.';
              if (photomap.entriesMoved) photomap.entriesMoved();
              return;
            }
            moved(answered);
            status.textContent = 'Moved ' + title + '.';
          });
      });
    };
    // Markers made before the owner was known are made again, draggable.
    if (photomap.entriesMoved) photomap.entriesMoved();

    undo.addEventListener('click', function () {
      closeForms();
      status.textContent = 'Putting back\u2026';
      changes.undo(function (error, answered) {
        moved(answered);
        status.textContent = error ? 'Not put back: ' + error + '.'
          : 'Put back ' + counted(answered.length, 'photo', 'photos') + ' as they were.';
        if (undo.disabled) set.focus();
      });
    });
    said();
  }

  photomap.forOwner(build);
})(window.photomap);
