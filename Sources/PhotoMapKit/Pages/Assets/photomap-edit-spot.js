// SPDX-License-Identifier: Apache-2.0
/* The spot every location editor asks for (photomap-edit.js, photomap-edit-many.js,
   photomap-edit-world.js): latitude and longitude fields, and a "New location" marker to drag, or to move
   with the arrow keys once focused (Shift: farther). The fields follow the marker, and the marker follows
   what is typed. The editor's form sends only a place the fields hold. */
(function (photomap) {
  'use strict';

  var KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  function field(name, label, limit) {
    var wrap = photomap.element('label', 'edit-field', label + ' '), input = document.createElement('input');
    [['type', 'number'], ['name', name], ['step', 'any'], ['min', String(-limit)], ['max', String(limit)],
      ['required', '']].forEach(function (pair) { input.setAttribute(pair[0], pair[1]); });
    wrap.appendChild(input);
    return { label: wrap, input: input };
  }

  var INVALID = 'Give a latitude from -90 to 90 and a longitude from -180 to 180.';

  /* A spot editor: `fields` to put in a form, `place(map, latLng)` shows the marker there, `remove()`
     takes it off, `submits(form, status, apply)` wires the form, `follows(form, status, said)` the find box. */
  photomap.spotEditor = function () {
    var latitude = field('latitude', 'Latitude', 90), longitude = field('longitude', 'Longitude', 180);
    var map = null, marker = null;

    function show(latLng) {
      var at = L.latLng(latLng).wrap();
      latitude.input.value = at.lat.toFixed(6);
      longitude.input.value = at.lng.toFixed(6);
    }

    function coordinates() {
      var lat = Number(latitude.input.value), lon = Number(longitude.input.value);
      var valid = latitude.input.value !== '' && longitude.input.value !== '' &&
        isFinite(lat) && isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
      return valid ? [lat, lon] : null;
    }

    /* Moves the marker by `dx`, `dy` pixels on screen, whatever the zoom. */
    function nudge(dx, dy) {
      var point = map.latLngToContainerPoint(marker.getLatLng()).add([dx, dy]);
      marker.setLatLng(map.containerPointToLatLng(point));
      show(marker.getLatLng());
    }

    function place(on, latLng) {
      map = on;
      show(latLng);
      if (marker) return marker.setLatLng(latLng);
      marker = L.marker(latLng, { draggable: true, keyboard: true, title: 'New location', alt: 'New location' });
      marker.addTo(map);
      marker.on('dragend', function () { show(marker.getLatLng()); });
      marker.getElement().addEventListener('keydown', function (event) {
        var step = KEYS[event.key];
        if (!step) return;
        event.preventDefault();
        event.stopPropagation();
        var far = event.shiftKey ? 50 : 10;
        nudge(step[0] * far, step[1] * far);
      });
    }

    /* `form`'s submit: `apply({ latitude, longitude })` with what the fields say, or, when that is not a
       place, `status` says what to give. */
    function submits(form, status, apply) {
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        var at = coordinates();
        if (at) apply({ latitude: at[0], longitude: at[1] });
        else status.textContent = INVALID;
      });
    }

    /* While `form` shows, a place the page's find box found outright (photomap-search.js's
       photomap-found) is where the marker goes; `status` says `said(title)`. */
    function follows(form, status, said) {
      photomap.body.addEventListener('photomap-found', function (event) {
        if (form.hidden || !map) return;
        place(map, [event.detail.latitude, event.detail.longitude]);
        status.textContent = said(event.detail.title);
      });
    }

    [latitude.input, longitude.input].forEach(function (input) {
      input.addEventListener('change', function () {
        var at = coordinates();
        if (at && marker) { marker.setLatLng(at); map.panTo(at); }
      });
    });

    return {
      fields: [latitude.label, longitude.label],
      place: place,
      remove: function () { if (marker) map.removeLayer(marker); marker = null; },
      submits: submits,
      follows: follows,
      /* The marker's element, to hand the focus to. */
      markerElement: function () { return marker ? marker.getElement() : null; }
    };
  };
})(window.photomap);
