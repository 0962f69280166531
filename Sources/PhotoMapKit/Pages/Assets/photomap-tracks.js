// SPDX-License-Identifier: Apache-2.0
/* The imported photos' GPS tracks, drawn under the markers (MapData.tracks, TrackDrawing.swift: each
   line's points as whole numbers of 1/scale degree, the first as it is and each next one as the
   difference), with a "Track" button that hides and shows them. */
(function (photomap) {
  'use strict';

  var data = photomap.data, element = photomap.element;

  /* The lines' points as [lat, lon] pairs, added back up from the differences. */
  function points(tracks) {
    return tracks.lines.map(function (numbers) {
      var line = [], lat = 0, lon = 0;
      for (var i = 0; i + 1 < numbers.length; i += 2) {
        lat += numbers[i];
        lon += numbers[i + 1];
        line.push([lat / tracks.scale, lon / tracks.scale]);
      }
      return line;
    });
  }

  /* Draws the page's tracks in the overlay pane, under the markers, and adds the button: a toggle
     (aria-pressed) reached by Tab and pressed by Enter or Space. Nothing on a page without tracks. */
  function addTracks(target) {
    if (!data.tracks || !data.tracks.lines.length) return;
    var layer = L.polyline(points(data.tracks), {
      interactive: false, color: '#c0392b', weight: 3, opacity: 0.75, className: 'photomap-track'
    }).addTo(target);
    var Toggle = L.Control.extend({
      options: { position: 'topright' },
      onAdd: function () {
        var box = element('div', 'leaflet-bar track-toggle');
        var button = element('button', null, 'Track');
        button.type = 'button';
        button.title = 'Show or hide the GPS track';
        button.setAttribute('aria-pressed', 'true');
        button.addEventListener('click', function () {
          var shown = target.hasLayer(layer);
          if (shown) target.removeLayer(layer); else layer.addTo(target);
          button.setAttribute('aria-pressed', String(!shown));
        });
        L.DomEvent.disableClickPropagation(box);
        box.appendChild(button);
        return box;
      }
    });
    new Toggle().addTo(target);
  }

  photomap.addTracks = addTracks;
  photomap.trackPoints = points;
})(window.photomap);
