// SPDX-License-Identifier: Apache-2.0
/* The owner's location editing on a served photo's page. Nothing is added unless the server's
   /api/session says the viewer is the owner (photomap.forOwner): anyone else's page has no trace of it.
   "Edit location" shows a marker to drag, a map to click, latitude and longitude fields, and arrow keys
   that move the focused marker (Shift: farther); Save sends POST /api/photos/locations with the
   session's CSRF token, as `photomap locate` would set it, and the page shows the place the server
   answers. "Undo" takes the last changes back (photomap-edit-changes.js). */
(function (photomap) {
  'use strict';

  var body = photomap.body, api = body.getAttribute('data-api'), made = photomap.made, button = photomap.button;
  var id = decodeURIComponent(location.pathname.split('/').pop() || '');
  // Served photo pages of imported photos only: Flickr's photos are not the owner's to move.
  if (!api || body.getAttribute('data-view') !== 'photo' || id.indexOf('local-') !== 0) return;

  /* The details' "Where" line: its <dd>, made when the photo had no location. */
  function whereLine(make) {
    var terms = document.querySelectorAll('article.photo dl dt');
    for (var i = 0; i < terms.length; i++) {
      if (terms[i].textContent === 'Where') return terms[i].nextElementSibling;
    }
    var list = document.querySelector('article.photo dl');
    if (!make || !list) return null;
    list.appendChild(made('dt', null, 'Where'));
    return list.appendChild(made('dd'));
  }

  function build(changes) {
    var details = document.querySelector('article.photo .details');
    if (!details) return;
    var box = made('section', 'edit-location', null, { 'aria-label': 'Edit location' });
    var start = button('edit-start', 'Edit location');
    var undo = button('edit-undo', 'Undo', { disabled: '' });
    var form = made('form', 'edit-form', null, { hidden: '' });
    var spot = photomap.spotEditor();
    var hint = made('p', 'edit-hint',
      'Drag the marker, click the map, or focus the marker and move it with the arrow keys (Shift: farther).');
    var save = made('button', 'edit-save', 'Save', { type: 'submit' });
    var remove = button('edit-clear', 'Remove location');
    var cancel = button('edit-cancel', 'Cancel');
    var status = made('output', 'edit-status', null, { 'aria-live': 'polite' });
    spot.fields.concat([hint, save, remove, cancel]).forEach(function (part) { form.appendChild(part); });
    var actions = made('div', 'edit-actions');
    [start, undo].forEach(function (part) { actions.appendChild(part); });
    [actions, form, status].forEach(function (part) { box.appendChild(part); });
    details.appendChild(box);

    // The map, and the marker showing the place last saved (the page's own is then stale).
    var map = null, shown = null, saved = null, removed = false;

    function onMapClick(event) { spot.place(map, event.latlng); }

    function editing(on) {
      form.hidden = !on;
      start.hidden = on;
      body.toggleAttribute('data-editing-location', on);
      if (!on) {
        map.off('click', onMapClick);
        spot.remove();
        return;
      }
      if (!document.getElementById('map')) details.insertBefore(made('div', null, null, { id: 'map' }), box);
      map = photomap.showMap();
      map.on('click', onMapClick);
      if (shown) map.removeLayer(shown);
      var centre = saved || (photomap.entries.lat[0] !== null ? [photomap.entries.lat[0], photomap.entries.lon[0]] : null);
      if (photomap.ownMarkers) photomap.ownMarkers.hide();
      spot.place(map, centre || map.getCenter());
      spot.markerElement().focus();
    }

    /* The answer's photo: the Where line, the map and the status (`done`: "saved", "put back") follow it. */
    function settled(photo, done) {
      var where = whereLine(photo.latitude !== null);
      editing(false);
      if (shown) map.removeLayer(shown);
      if (photo.latitude === null) {
        if (where) { where.previousElementSibling.remove(); where.remove(); }
        saved = shown = null;
        removed = true;
        status.textContent = done === 'saved' ? 'Location removed.' : 'Put back without a location.';
      } else {
        where.textContent = photo.latitude.toFixed(6) + ', ' + photo.longitude.toFixed(6) +
          (photo.locationNote ? ' (' + photo.locationNote + ')' : '');
        saved = [photo.latitude, photo.longitude];
        removed = false;
        // The page's own marker stood where the photo was: the saved place stands in for it.
        shown = L.marker(saved, { keyboard: false, title: photo.title, alt: photo.title }).addTo(map);
        map.setView(saved);
        status.textContent = 'Location ' + done + ': ' + where.textContent + '.';
      }
      body.setAttribute('data-location-saved', String(Date.now()));
      start.focus();
    }

    function send(edit) {
      status.textContent = 'Saving\u2026';
      changes.apply([id], edit, function (error, photos) {
        if (error || !photos.length) status.textContent = 'Not saved: ' + (error || 'the server did not answer') + '.';
        else settled(photos[0], 'saved');
      });
    }

    changes.onChange(function (count) {
      undo.disabled = !count;
      undo.textContent = count ? 'Undo (' + count + ')' : 'Undo';
    });
    undo.addEventListener('click', function () {
      status.textContent = 'Putting back\u2026';
      changes.undo(function (error, photos) {
        if (photos.length) settled(photos[photos.length - 1], 'put back');
        if (error) status.textContent = 'Not put back: ' + error + '.';
        (undo.disabled ? start : undo).focus();
      });
    });

    start.addEventListener('click', function () { status.textContent = ''; editing(true); });
    cancel.addEventListener('click', function () {
      editing(false);
      if (shown) shown.addTo(map);
      else if (photomap.ownMarkers && saved === null && !removed) photomap.ownMarkers.show();
      status.textContent = 'Nothing changed.';
      start.focus();
    });
    spot.submits(form, status, send);
    remove.addEventListener('click', function () { send({ clear: true }); });
  }

  photomap.forOwner(build);
})(window.photomap);
