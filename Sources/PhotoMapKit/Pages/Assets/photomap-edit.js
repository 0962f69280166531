/* The owner's location editing on a served photo's page. Nothing is added unless the server's
   /api/session says the viewer is the owner: anyone else's page has no trace of it. "Edit location"
   shows a marker to drag, a map to click, latitude and longitude fields, and arrow keys that move the
   focused marker (Shift: farther); Save sends POST /api/photos/locations with the session's CSRF
   token, as `photomap locate` would set it, and the page shows the place the server answers. */
(function (photomap) {
  'use strict';

  var body = photomap.body, api = body.getAttribute('data-api');
  var id = decodeURIComponent(location.pathname.split('/').pop() || '');
  // Served photo pages of imported photos only: Flickr's photos are not the owner's to move.
  if (!api || body.getAttribute('data-view') !== 'photo' || id.indexOf('local-') !== 0) return;

  /* method path (under the API) with `json` sent, calling done(status, answer). */
  function call(method, path, json, csrf, done) {
    var request = new XMLHttpRequest();
    request.open(method, api + path);
    request.responseType = 'json';
    if (json) {
      request.setRequestHeader('Content-Type', 'application/json');
      request.setRequestHeader('X-CSRF-Token', csrf);
    }
    request.onload = function () { done(request.status, request.response); };
    request.onerror = function () { done(0, null); };
    request.send(json ? JSON.stringify(json) : null);
  }

  function element(tag, attributes, text) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    if (text) made.textContent = text;
    return made;
  }

  function field(name, label, min, max) {
    var wrap = element('label', { class: 'edit-field' }, label + ' ');
    var input = element('input', { type: 'number', name: name, step: 'any', min: String(min), max: String(max), required: '' });
    wrap.appendChild(input);
    return { label: wrap, input: input };
  }

  /* The details' "Where" line: its <dd>, made when the photo had no location. */
  function whereLine(make) {
    var terms = document.querySelectorAll('article.photo dl dt');
    for (var i = 0; i < terms.length; i++) {
      if (terms[i].textContent === 'Where') return terms[i].nextElementSibling;
    }
    var list = document.querySelector('article.photo dl');
    if (!make || !list) return null;
    list.appendChild(element('dt', {}, 'Where'));
    return list.appendChild(element('dd'));
  }

  function build(csrf) {
    var details = document.querySelector('article.photo .details');
    if (!details) return;
    var box = element('section', { class: 'edit-location', 'aria-label': 'Edit location' });
    var start = element('button', { type: 'button', class: 'edit-start' }, 'Edit location');
    var form = element('form', { class: 'edit-form', hidden: '' });
    var latitude = field('latitude', 'Latitude', -90, 90), longitude = field('longitude', 'Longitude', -180, 180);
    var hint = element('p', { class: 'edit-hint' },
      'Drag the marker, click the map, or focus the marker and move it with the arrow keys (Shift: farther).');
    var save = element('button', { type: 'submit', class: 'edit-save' }, 'Save');
    var remove = element('button', { type: 'button', class: 'edit-clear' }, 'Remove location');
    var cancel = element('button', { type: 'button', class: 'edit-cancel' }, 'Cancel');
    var status = element('output', { class: 'edit-status', 'aria-live': 'polite' });
    [latitude.label, longitude.label, hint, save, remove, cancel].forEach(function (part) { form.appendChild(part); });
    [start, form, status].forEach(function (part) { box.appendChild(part); });
    details.appendChild(box);

    // The marker being moved, and the one showing the place last saved (the page's own is then stale).
    var map = null, marker = null, shown = null, saved = null, removed = false;

    function coordinates() {
      var lat = Number(latitude.input.value), lon = Number(longitude.input.value);
      var valid = latitude.input.value !== '' && longitude.input.value !== '' &&
        isFinite(lat) && isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
      return valid ? [lat, lon] : null;
    }

    function show(latLng) {
      var at = L.latLng(latLng).wrap();
      latitude.input.value = at.lat.toFixed(6);
      longitude.input.value = at.lng.toFixed(6);
    }

    /* Moves the marker by `dx`, `dy` pixels on screen, whatever the zoom. */
    function nudge(dx, dy) {
      var point = map.latLngToContainerPoint(marker.getLatLng()).add([dx, dy]);
      marker.setLatLng(map.containerPointToLatLng(point));
      show(marker.getLatLng());
    }

    function placeMarker(latLng) {
      if (marker) return marker.setLatLng(latLng);
      marker = L.marker(latLng, { draggable: true, keyboard: true, title: 'New location', alt: 'New location' });
      marker.addTo(map);
      marker.on('dragend', function () { show(marker.getLatLng()); });
      var keys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      marker.getElement().addEventListener('keydown', function (event) {
        var step = keys[event.key];
        if (!step) return;
        event.preventDefault();
        event.stopPropagation();
        var far = event.shiftKey ? 50 : 10;
        nudge(step[0] * far, step[1] * far);
      });
    }

    function onMapClick(event) { placeMarker(event.latlng); show(event.latlng); }

    function editing(on) {
      form.hidden = !on;
      start.hidden = on;
      body.toggleAttribute('data-editing-location', on);
      if (!on) {
        map.off('click', onMapClick);
        if (marker) map.removeLayer(marker);
        marker = null;
        return;
      }
      if (!document.getElementById('map')) details.insertBefore(element('div', { id: 'map' }), box);
      map = photomap.showMap();
      map.on('click', onMapClick);
      if (shown) map.removeLayer(shown);
      var centre = saved || (photomap.entries.lat[0] !== null ? [photomap.entries.lat[0], photomap.entries.lon[0]] : null);
      if (photomap.ownMarkers) photomap.ownMarkers.hide();
      placeMarker(centre || map.getCenter());
      show(marker.getLatLng());
      marker.getElement().focus();
    }

    /* The answer's photo: the Where line, the map and the status follow it. */
    function settled(photo) {
      var where = whereLine(photo.latitude !== null);
      editing(false);
      if (photo.latitude === null) {
        if (where) { where.previousElementSibling.remove(); where.remove(); }
        saved = shown = null;
        removed = true;
        status.textContent = 'Location removed.';
      } else {
        where.textContent = photo.latitude.toFixed(6) + ', ' + photo.longitude.toFixed(6) +
          (photo.locationNote ? ' (' + photo.locationNote + ')' : '');
        saved = [photo.latitude, photo.longitude];
        removed = false;
        // The page's own marker stood where the photo was: the saved place stands in for it.
        shown = L.marker(saved, { keyboard: false, title: photo.title, alt: photo.title }).addTo(map);
        map.setView(saved);
        status.textContent = 'Location saved: ' + where.textContent + '.';
      }
      body.setAttribute('data-location-saved', String(Date.now()));
      start.focus();
    }

    function send(edit) {
      status.textContent = 'Saving\u2026';
      edit.photos = [id];
      call('POST', '/photos/locations', edit, csrf, function (code, answer) {
        if (code === 200 && answer && answer.photos && answer.photos.length) return settled(answer.photos[0]);
        status.textContent = 'Not saved: ' + (answer && answer.error ? answer.error : 'the server did not answer') + '.';
      });
    }

    start.addEventListener('click', function () { status.textContent = ''; editing(true); });
    cancel.addEventListener('click', function () {
      editing(false);
      if (shown) shown.addTo(map);
      else if (photomap.ownMarkers && saved === null && !removed) photomap.ownMarkers.show();
      status.textContent = 'Nothing changed.';
      start.focus();
    });
    [latitude.input, longitude.input].forEach(function (input) {
      input.addEventListener('change', function () {
        var at = coordinates();
        if (at && marker) { marker.setLatLng(at); map.panTo(at); }
      });
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var at = coordinates();
      if (!at) {
        status.textContent = 'Give a latitude from -90 to 90 and a longitude from -180 to 180.';
        return;
      }
      send({ latitude: at[0], longitude: at[1] });
    });
    remove.addEventListener('click', function () { send({ clear: true }); });
  }

  call('GET', '/session', null, null, function (status, session) {
    if (status === 200 && session && session.role === 'owner' && session.csrf) build(session.csrf);
  });
})(window.photomap);
