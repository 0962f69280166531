// SPDX-License-Identifier: Apache-2.0
/* The owner's location editing on the map of everything (/map, its clusters asked of the server a tile
   at a time). Nothing is added unless photomap.forOwner says the viewer is the owner. A lone photo's
   callout offers "Set location" (the spot editor of photomap-edit-spot.js: a click on the map, typed
   coordinates, the arrow keys, the find box) and "Remove location", and its marker can be dragged; "Undo"
   takes back the last changes. After each change the tiles are asked again: the catalog's version is
   in their ETag, so the server answers them anew and the marker moves. */
(function (photomap) {
  'use strict';

  var body = photomap.body, data = photomap.data, made = photomap.made, button = photomap.button;
  if (!body.getAttribute('data-api') || !data.tiles) return;

  function build(changes) {
    var spot = photomap.spotEditor(), map = null, editing = null, opener = null;
    var box = made('section', 'edit-many edit-world', null, { 'aria-label': 'Edit locations' });
    var bar = made('div', 'edit-many-bar');
    var undo = button('edit-undo', 'Undo', { disabled: '' });
    bar.appendChild(undo);
    var form = made('form', 'edit-form edit-set-form', null, { hidden: '', 'aria-label': 'Set location' });
    var hint = made('p', 'edit-hint', 'Click the map, type the coordinates, find a place with the search box, ' +
      'or focus the marker and move it with the arrow keys (Shift: farther).');
    var apply = made('button', 'edit-apply', 'Apply', { type: 'submit' });
    var cancel = button('edit-cancel', 'Cancel');
    spot.fields.concat([hint, apply, cancel]).forEach(function (part) { form.appendChild(part); });
    var status = made('output', 'edit-status', null, { 'aria-live': 'polite' });
    [bar, form, status].forEach(function (part) { box.appendChild(part); });
    var main = document.querySelector('main');
    main.insertBefore(box, main.firstChild);
    var changed = 0;

    /* The tiles asked again, so that the markers show where the photos now are. */
    function redrawn() {
      if (photomap.ownMarkers) photomap.ownMarkers.redraw();
      body.setAttribute('data-locations-changed', String(++changed));
    }

    function onMapClick(event) { spot.place(map, event.latlng); }

    function closeForm() {
      form.hidden = true;
      editing = null;
      if (map) map.off('click', onMapClick);
      spot.remove();
    }

    /* Sends `edit` for the photo `id`; `what` says it done ("Moved", "Removed the location of"). */
    function send(id, edit, what) {
      status.textContent = 'Saving\u2026';
      changes.apply([id], edit, function (error, answered) {
        if (error) {
          status.textContent = 'Not saved: ' + error + '.';
          if (photomap.ownMarkers) photomap.ownMarkers.redraw();
          return;
        }
        closeForm();
        status.textContent = what + ' ' + (answered[0] && answered[0].title || 'the photo') + '.';
        redrawn();
        if (opener && document.body.contains(opener)) opener.focus(); else undo.focus();
      });
    }

    /* "Set location" for the photo `id`, whose marker is `marker`. */
    function setLocation(id, marker) {
      map = photomap.showMap();
      map.closePopup();
      editing = id;
      form.hidden = false;
      map.on('click', onMapClick);
      spot.place(map, marker.getLatLng().wrap());
      spot.markerElement().focus({ preventScroll: true });
      status.textContent = '';
    }

    /* A lone photo's marker (photomap-clusters.js asks as it makes one): draggable, and its callout
       offers the changes. */
    photomap.photoMarker = function (marker, properties) {
      if (typeof properties !== 'object' || !properties || properties.kind !== 'photo' || !properties.id) return;
      var id = properties.id;
      marker.options.draggable = true;
      marker.on('dragend', function () {
        var at = marker.getLatLng().wrap();
        opener = null;
        send(id, { latitude: Math.round(at.lat * 1e6) / 1e6, longitude: Math.round(at.lng * 1e6) / 1e6 }, 'Moved');
      });
      marker.on('popupopen', function (event) {
        var callout = event.popup.getElement().querySelector('.callout');
        if (!callout || callout.querySelector('.callout-edit')) return;
        var actions = made('div', 'callout-actions callout-edit');
        var set = button('edit-set', 'Set location\u2026');
        var remove = button('edit-clear', 'Remove location');
        set.addEventListener('click', function () {
          opener = marker.getElement();
          setLocation(id, marker);
        });
        remove.addEventListener('click', function () {
          opener = null;
          map = photomap.showMap();
          map.closePopup();
          send(id, { clear: true }, 'Removed the location of');
        });
        [set, remove].forEach(function (part) { actions.appendChild(part); });
        callout.appendChild(actions);
        // Sized and panned again for the taller callout: its own element set as its content (a new one
        // would lack these buttons), the focus kept where it was.
        var focused = document.activeElement, holder = callout.closest('.leaflet-popup-content').firstElementChild;
        event.popup.setContent(holder);
        if (focused && holder.contains(focused)) focused.focus();
      });
    };
    // Markers made before the owner was known are made again, with the changes.
    if (photomap.ownMarkers) photomap.ownMarkers.redraw();

    spot.submits(form, status, function (edit) { if (editing) send(editing, edit, 'Moved'); });
    cancel.addEventListener('click', function () {
      closeForm();
      status.textContent = 'Nothing changed.';
      undo.focus();
    });
    spot.follows(form, status, function (title) { return 'Found ' + title + ': Apply puts the photo there.'; });

    changes.onChange(function (count) {
      undo.disabled = !count;
      undo.textContent = count ? 'Undo (' + count + ')' : 'Undo';
    });
    undo.addEventListener('click', function () {
      closeForm();
      status.textContent = 'Putting back\u2026';
      changes.undo(function (error, answered) {
        if (answered.length) redrawn();
        status.textContent = error ? 'Not put back: ' + error + '.'
          : 'Put back ' + photomap.counted(answered.length, 'photo', 'photos') + ' as they were.';
        if (undo.disabled && map) map.getContainer().focus({ preventScroll: true });
      });
    });
  }

  photomap.forOwner(build);
})(window.photomap);
