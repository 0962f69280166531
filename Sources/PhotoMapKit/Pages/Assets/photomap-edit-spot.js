/* The spot both location editors ask for (photomap-edit.js, photomap-edit-many.js): latitude and
   longitude fields, and a "New location" marker to drag, or to move with the arrow keys once focused
   (Shift: farther). The fields follow the marker, and the marker follows what is typed. */
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

  /* A spot editor: `fields` to put in a form, `place(map, latLng)` shows the marker there, `remove()`
     takes it off, `coordinates()` is what the fields say ([lat, lon], or null when not a place, which
     `invalid` says to the user). */
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
      coordinates: coordinates,
      invalid: 'Give a latitude from -90 to 90 and a longitude from -180 to 180.',
      /* The marker's element, to hand the focus to. */
      markerElement: function () { return marker ? marker.getElement() : null; }
    };
  };
})(window.photomap);
