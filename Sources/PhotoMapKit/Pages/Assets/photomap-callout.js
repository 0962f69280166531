// SPDX-License-Identifier: Apache-2.0
/* Markers and their MapKit-style callouts: a thumbnail, the title and subtitle, the credits and a
   disclosure link, opened from the marker by a click or from the keyboard. */
(function (photomap) {
  'use strict';

  var data = photomap.data, element = photomap.element, safeLink = photomap.safeLink;
  var counted = photomap.counted, spoken = photomap.spoken, creditLine = photomap.creditLine;

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
    if (properties.locationNote) text.appendChild(element('div', 'callout-location', properties.locationNote));
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

  /* How far a callout keeps from the map's edges so that no control covers it: below the controls of
     the top corners and above those of the bottom ones (the zoom buttons, Heat, the attribution), as
     they are laid out now (a phone's controls are larger), for Leaflet's autoPan. */
  function clearOfControls(marker, popup) {
    var icon = marker.getElement(), container = icon && icon.closest('.leaflet-container');
    if (!container) return;
    var box = container.getBoundingClientRect(), top = 0, bottom = 0, MARGIN = 8;
    var controls = container.querySelectorAll('.leaflet-top .leaflet-control, .leaflet-bottom .leaflet-control');
    for (var i = 0; i < controls.length; i++) {
      var control = controls[i].getBoundingClientRect();
      if (!control.height) continue;
      if (controls[i].closest('.leaflet-top')) top = Math.max(top, control.bottom - box.top);
      else bottom = Math.max(bottom, box.bottom - control.top);
    }
    popup.options.autoPanPaddingTopLeft = [MARGIN, top + MARGIN];
    popup.options.autoPanPaddingBottomRight = [MARGIN, bottom + MARGIN];
  }

  /* A marker whose callout is `content()` (an element holding a `.callout`), opened clear of the map's
     controls. The open callout takes the focus; when it closes with the focus inside (Escape, its close
     button; a closing callout fades out, still holding it) or lost with it, the focus goes back to the
     marker. */
  function withCallout(marker, content, options) {
    marker.bindPopup(content, options || { minWidth: 220, maxWidth: 320 });
    // Every way a callout opens (a click, Enter, a script) goes through openPopup, where it is placed.
    var openPopup = marker.openPopup;
    marker.openPopup = function () {
      clearOfControls(marker, marker.getPopup());
      return openPopup.apply(marker, arguments);
    };
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

  /* A marker whose callout shows `properties`. */
  function calloutMarker(at, properties, icon) {
    var marker = labelled(L.marker(at, { icon: icon || pin, title: properties.title, keyboard: true }), spoken(properties));
    return withCallout(marker, function () { return callout(properties); });
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

  photomap.loadThumbnail = loadThumbnail;
  photomap.labelled = labelled;
  photomap.calloutMarker = calloutMarker;
  photomap.withCallout = withCallout;
  photomap.closeCalloutsOnEscape = closeCalloutsOnEscape;
  photomap.markerFor = markerFor;
})(window.photomap);
