// SPDX-License-Identifier: Apache-2.0
/* The timeline: how many photos were taken each month (each year, over a long span), and a range of
   them, chosen with two sliders, that filters what the page shows: the map's markers and clusters,
   the list and the counts. Photos without a date are shown only with the whole range. The range is
   kept in the address (?from=YYYY-MM&to=YYYY-MM), so a reload or a shared link shows the same view.
   Months are whole numbers, year × 12 + month − 1 (MonthTaken.swift), in the entries' `month` column;
   a pre-clustered page's index (`months`, `listMonths`) and tiles count its photos by step, each
   under its step's first month. */
(function (photomap) {
  'use strict';

  var data = photomap.data, entries = photomap.entries, element = photomap.element, counted = photomap.counted;
  var NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
    'October', 'November', 'December'];

  /* Photos by month ({month: count}), and how many have a date. */
  var byMonth = {}, dated = 0;
  function add(month, count) {
    byMonth[month] = (byMonth[month] || 0) + count;
    dated += count;
  }
  if (data.clusters || data.tiles) {
    var pairs = (data.clusters || data.tiles).months || [];
    for (var p = 0; p + 1 < pairs.length; p += 2) add(pairs[p], pairs[p + 1]);
  } else if (entries.month) {
    entries.month.forEach(function (month) { if (month !== null) add(month, 1); });
  }
  var months = Object.keys(byMonth).map(Number).sort(function (a, b) { return a - b; });

  var timeline = {
    /* Whether a range narrower than the whole is chosen, and its first and last month. */
    filtering: false, from: null, to: null,
    /* Whether a photo taken in `month` (null: no date) is shown. */
    shows: function (month) {
      return !timeline.filtering || (month !== null && month !== undefined && month >= timeline.from && month <= timeline.to);
    },
    /* How many of a histogram's ([month, count, …]) photos are shown, of `all`. */
    count: function (pairs, all) {
      if (!timeline.filtering) return all;
      var shown = 0;
      for (var i = 0; pairs && i + 1 < pairs.length; i += 2) if (timeline.shows(pairs[i])) shown += pairs[i + 1];
      return shown;
    },
    /* Calls `listener()` after every change of the range. */
    onChange: function (listener) { listeners.push(listener); }
  };
  var listeners = [];
  photomap.timeline = timeline;
  if (months.length === 0 || document.body.getAttribute('data-view') === 'photo') return;

  var first = months[0], last = months[months.length - 1];
  // A bar and a step of the sliders is a month, or a year over a long span (MonthTaken.step).
  var yearly = data.monthStep === 12;
  var start = yearly ? first - first % 12 : first;
  var bins = yearly ? Math.floor(last / 12) - Math.floor(first / 12) + 1 : last - first + 1;
  if (bins < 2) return;  // one month (or year): nothing to choose
  function binStart(bin) { return start + bin * (yearly ? 12 : 1); }
  function binEnd(bin) { return binStart(bin) + (yearly ? 11 : 0); }
  function binOf(month) {
    return Math.max(0, Math.min(bins - 1, Math.floor((month - start) / (yearly ? 12 : 1))));
  }
  function named(month) { return NAMES[month % 12] + ' ' + Math.floor(month / 12); }
  function binName(bin) { return yearly ? String(Math.floor(binStart(bin) / 12)) : named(binStart(bin)); }
  function code(month) { var m = month % 12 + 1; return Math.floor(month / 12) + '-' + (m < 10 ? '0' : '') + m; }
  function parsed(text) {
    var match = /^(\d{4})-(\d{2})$/.exec(text || '');
    return match && Number(match[2]) >= 1 && Number(match[2]) <= 12 ? Number(match[1]) * 12 + Number(match[2]) - 1 : null;
  }

  /* The bars: photos per bin, drawn to the tallest; for the eye only (the sliders say the dates). */
  var box = element('div', 'timeline');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'When the photos were taken');
  var bars = element('div', 'timeline-bars'), perBin = [], tallest = 1;
  bars.setAttribute('aria-hidden', 'true');
  // The bars fill the timeline's width, a bin each; the sliders' track runs from the first bar's centre to
  // the last's (--half-bin from each end), so that each step's thumb stands under its bar.
  for (var b = 0; b < bins; b++) perBin.push(0);
  months.forEach(function (month) { perBin[binOf(month)] += byMonth[month]; });
  perBin.forEach(function (n) { tallest = Math.max(tallest, n); });
  var barElements = perBin.map(function (n) {
    var bar = element('span', 'timeline-bar');
    bar.style.height = (n ? Math.max(8, Math.round(100 * n / tallest)) : 0) + '%';
    bars.appendChild(bar);
    return bar;
  });

  function slider(label, value) {
    var input = element('input');
    input.type = 'range';
    input.min = 0;
    input.max = bins - 1;
    input.step = 1;
    input.value = value;
    input.setAttribute('aria-label', label);
    input.className = 'timeline-' + label.toLowerCase();
    return input;
  }
  var fromInput = slider('From', 0), toInput = slider('To', bins - 1);
  var status = element('output', 'timeline-status');
  status.setAttribute('aria-live', 'polite');
  var reset = element('button', 'timeline-all', 'All dates');
  reset.type = 'button';
  var sliders = element('div', 'timeline-sliders');
  sliders.style.setProperty('--half-bin', 'calc(100% / ' + (2 * bins) + ')');
  [fromInput, toInput].forEach(function (input) { sliders.appendChild(input); });
  [bars, sliders, status, reset].forEach(function (part) { box.appendChild(part); });

  /* The subtitle's count ("214 photos", "100 of 214 photos"), which a range narrows to "34 of 100 photos";
     what follows it (" · Ile-de-France, France") stays. */
  var subtitle = document.querySelector('header .subtitle'), subtitleText = subtitle ? subtitle.textContent : '';
  var countSaid = /^\d+ (?:of \d+ )?photos?/.exec(subtitleText);

  /* Shows the range of the sliders: their names, the bars, the status line, the subtitle's count. */
  function describe() {
    var from = Number(fromInput.value), to = Number(toInput.value);
    fromInput.setAttribute('aria-valuetext', binName(from));
    toInput.setAttribute('aria-valuetext', binName(to));
    barElements.forEach(function (bar, bin) { bar.classList.toggle('outside', bin < from || bin > to); });
    var shown = timeline.filtering ? timeline.count(flatHistogram, dated) : photomap.total;
    var firstName = exact ? named(timeline.from) : binName(from), lastName = exact ? named(timeline.to) : binName(to);
    var span = firstName === lastName ? firstName : firstName + ' \u2013 ' + lastName;
    status.textContent = timeline.filtering ? counted(shown, 'photo', 'photos') + ', ' + span : 'All dates, ' + span;
    reset.hidden = !timeline.filtering;
    if (subtitle && countSaid) {
      subtitle.textContent = timeline.filtering
        ? shown + ' of ' + counted(photomap.total, 'photo', 'photos') + subtitleText.slice(countSaid[0].length)
        : subtitleText;
    }
    document.body.setAttribute('data-timeline-shown', String(shown));
  }
  var flatHistogram = [];
  months.forEach(function (month) { flatHistogram.push(month, byMonth[month]); });

  /* Takes the sliders' range: the filter, the address, the page's parts (listeners), the text. An
     address's months (`months`, [from, to]) are kept as they are, though the sliders step by years:
     ?from=2011-05 means May 2011, not all of 2011. */
  var pending = false, exact = false;
  function apply(fromBin, toBin, keepAddress, months) {
    fromBin = Math.max(0, Math.min(bins - 1, fromBin));
    toBin = Math.max(fromBin, Math.min(bins - 1, toBin));
    fromInput.value = fromBin;
    toInput.value = toBin;
    timeline.from = binStart(fromBin);
    timeline.to = binEnd(toBin);
    exact = !!months && (months[0] > timeline.from || months[1] < timeline.to);
    if (exact) {
      timeline.from = Math.max(timeline.from, months[0]);
      timeline.to = Math.min(timeline.to, months[1]);
    }
    timeline.filtering = exact || fromBin > 0 || toBin < bins - 1;
    if (!keepAddress) {
      var query = timeline.filtering ? '?from=' + code(timeline.from) + '&to=' + code(timeline.to) : '';
      var kept = location.search.replace(/^\?/, '').split('&').filter(function (part) {
        return part && !/^(from|to)=/.test(part);
      });
      if (kept.length) query += (query ? '&' : '?') + kept.join('&');
      history.replaceState(history.state, '', location.pathname + query + location.hash);
    }
    describe();
    listeners.forEach(function (listener) { listener(); });
  }

  /* A slider moved: the other follows when they would cross. The page follows once a frame. */
  function moved(event) {
    var from = Number(fromInput.value), to = Number(toInput.value);
    if (from > to) {
      if (event.target === fromInput) toInput.value = to = from; else fromInput.value = from = to;
    }
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      apply(Number(fromInput.value), Number(toInput.value));
    });
  }
  fromInput.addEventListener('input', moved);
  toInput.addEventListener('input', moved);
  reset.addEventListener('click', function () {
    apply(0, bins - 1);
    fromInput.focus();
  });

  var header = document.querySelector('header');
  if (header) header.appendChild(box);
  var query = new URLSearchParams(location.search);
  var askedFrom = parsed(query.get('from')), askedTo = parsed(query.get('to'));
  if (askedFrom !== null || askedTo !== null) {
    var fromBin = askedFrom === null ? 0 : binOf(askedFrom), toBin = askedTo === null ? bins - 1 : binOf(askedTo);
    // Before the other scripts start their views: they read the range as they are made. A pre-clustered
    // page counts its photos by step, not by month: its range is whole steps.
    var exactMonths = data.clusters ? null : [askedFrom === null ? -Infinity : askedFrom, askedTo === null ? Infinity : askedTo];
    apply(fromBin, toBin, true, exactMonths);
  } else {
    apply(0, bins - 1, true);
  }
})(window.photomap);
