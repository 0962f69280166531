// SPDX-License-Identifier: Apache-2.0
/* The list view: a page of entries at a time, the first ones written by PageRenderer, the others made
   from the page's data (or its list files) when their page is shown. */
(function (photomap) {
  'use strict';

  var data = photomap.data, body = photomap.body, total = photomap.total, entry = photomap.entry;
  var withEntries = photomap.withEntries, ready = photomap.ready, element = photomap.element;
  var safeLink = photomap.safeLink, counted = photomap.counted, creditLine = photomap.creditLine;

  /* An entry of the list, as PageRenderer writes the first ones. */
  function listItem(i) {
    var properties = entry(i), item = element('li'), anchor = element('a');
    var link = safeLink(properties.link);
    if (link) anchor.href = link;
    if (properties.kind === 'photo') {
      var thumb = element('img');
      thumb.src = safeLink(properties.thumbnail) || data.placeholder;
      thumb.alt = '';
      thumb.width = 75;
      thumb.height = 75;
      thumb.loading = 'lazy';
      anchor.appendChild(thumb);
    }
    var text = element('span', 'text'), subtitle = element('span', 'subtitle', properties.subtitle);
    text.appendChild(element('span', 'title', properties.title));
    if (!properties.located) {
      subtitle.appendChild(document.createTextNode(' '));
      subtitle.appendChild(element('span', 'nogeo', '(no location)'));
    }
    text.appendChild(subtitle);
    anchor.appendChild(text);
    if (properties.count !== null && properties.count !== undefined) {
      anchor.appendChild(element('span', 'count', counted(properties.count, 'photo', 'photos')));
    }
    item.appendChild(anchor);
    var credit = creditLine(properties, 'span', 'credit');
    if (credit) item.appendChild(credit);
    return item;
  }

  /* The entries the list shows: every one, or those in the timeline's range, found in the page's
     entries or (a pre-clustered page) in the list files whose months (`listMonths`) say they hold
     some. `count` of them; `pick(from, to, done)` gives done() the indices of the from-th to the
     (to-1)-th, their list files loaded, or null when one cannot be. */
  function selection() {
    var timeline = photomap.timeline, entries = photomap.entries, i;
    if (!timeline.filtering) {
      return { count: total, pick: function (from, to, done) {
        withEntries(from, to, function (loaded) {
          var picked = [];
          for (var k = from; k < to; k++) picked.push(k);
          done(loaded ? picked : null);
        });
      } };
    }
    var lists = data.clusters && data.clusters.listMonths;
    if (!lists) {
      var indices = [];
      for (i = 0; i < total; i++) if (timeline.shows(entries.month ? entries.month[i] : null)) indices.push(i);
      return { count: indices.length, pick: function (from, to, done) { done(indices.slice(from, to)); } };
    }
    var chunk = data.clusters.listChunk, counts = lists.map(function (pairs) { return timeline.count(pairs, 0); });
    return { count: counts.reduce(function (a, b) { return a + b; }, 0), pick: function (from, to, done) {
      var before = 0, firstFile = -1, lastFile = -1, skip = 0;
      for (var n = 0; n < counts.length && lastFile < 0; n++) {
        if (firstFile < 0 && before + counts[n] > from) { firstFile = n; skip = from - before; }
        if (firstFile >= 0 && before + counts[n] >= to) lastFile = n;
        before += counts[n];
      }
      if (firstFile < 0) return done([]);
      if (lastFile < 0) lastFile = counts.length - 1;
      var start = firstFile * chunk, end = Math.min(total, (lastFile + 1) * chunk);
      withEntries(start, end, function (loaded) {
        if (!loaded) return done(null);
        var picked = [];
        for (var k = start; k < end; k++) if (timeline.shows(entry(k).month)) picked.push(k);
        done(picked.slice(skip, skip + to - from));
      });
    } };
  }

  /* The list shows `data.listPage` entries at a time: the page holds the first ones as HTML, the
     others are made from the data (or a list file's) when their page is shown. The pager's buttons
     and page number are ordinary controls (Tab, Enter); "#list-N" in the address keeps the page
     across visits. The timeline's range chooses the entries listed. */
  var listPage = 0, listPages = 1;

  function listHash() { return listPage ? '#list-' + (listPage + 1) : '#list'; }

  function listPager(initial) {
    var list = document.querySelector('#list ul.annotations'), size = data.listPage || total;
    var chosen = selection(), nav = null, status = null, number, first, previous, next, last;
    listPages = Math.max(1, Math.ceil(chosen.count / size));
    if (!list) return ready('list', total);

    /* The pager, made when there is more than a page to show. */
    function makePager() {
      nav = element('nav', 'pager');
      status = element('output', 'pager-status');
      number = element('input');
      nav.setAttribute('aria-label', 'Pages of the list');
      status.setAttribute('aria-live', 'polite');
      number.type = 'number';
      number.min = 1;
      function button(label, name, page) {
        var control = element('button', null, label);
        control.type = 'button';
        control.setAttribute('data-page', name);
        control.addEventListener('click', function () { show(page()); });
        return control;
      }
      first = button('\u00ab First', 'first', function () { return 0; });
      previous = button('\u2039 Previous', 'previous', function () { return listPage - 1; });
      next = button('Next \u203a', 'next', function () { return listPage + 1; });
      last = button('Last \u00bb', 'last', function () { return listPages - 1; });
      var label = element('label', null, 'Page ');
      label.appendChild(number);
      label.appendChild(element('span', 'pager-pages'));
      [first, previous, label, next, last, status].forEach(function (part) { nav.appendChild(part); });
      number.addEventListener('change', function () { show(Number(number.value) - 1); });
      list.parentNode.insertBefore(nav, list.nextSibling);
    }

    /* Shows a page of entries, once their list file is loaded (at once for the page's own). On
       opening, the first page's, already in the page, are kept as they are (the whole range
       chosen), and the address is left alone, as it is when the range changes on the map. */
    function show(page, opening, keepAddress) {
      var shown = listPage = Math.max(0, Math.min(isFinite(page) ? Math.floor(page) : 0, listPages - 1));
      var from = listPage * size, to = Math.min(chosen.count, from + size), pick = chosen;
      var range = chosen.count ? (from + 1) + '\u2013' + to + ' of ' + chosen.count : 'none of ' + total;
      if (listPages > 1 && !nav) makePager();
      if (nav) {
        nav.hidden = listPages === 1 && !photomap.timeline.filtering;
        number.max = listPages;
        number.setAttribute('aria-label', 'Page number, of ' + listPages);
        nav.querySelector('.pager-pages').textContent = ' of ' + listPages;
        number.value = listPage + 1;
        first.disabled = previous.disabled = listPage === 0;
        next.disabled = last.disabled = listPage === listPages - 1;
        status.textContent = 'Loading entries ' + range + '\u2026';
      }
      if (!opening && !keepAddress) history.replaceState(history.state, '', listHash());
      pick.pick(from, to, function (picked) {
        if (shown !== listPage || pick !== chosen) return;  // another page or range was asked for meanwhile
        if (!picked) {
          if (status) status.textContent = 'Entries ' + range + ' could not be loaded';
          return;
        }
        if (!opening || listPage || photomap.timeline.filtering) {
          var items = document.createDocumentFragment();
          picked.forEach(function (i) { items.appendChild(listItem(i)); });
          list.textContent = '';
          list.appendChild(items);
        }
        if (status) status.textContent = chosen.count ? 'Entries ' + range : 'No entries in this range';
        if (!opening) document.getElementById('list').scrollTop = 0;
        body.setAttribute('data-list-page', String(listPage + 1));
        body.setAttribute('data-list-count', String(chosen.count));
        if (opening) ready('list', total);
      });
    }

    photomap.timeline.onChange(function () {
      chosen = selection();
      listPages = Math.max(1, Math.ceil(chosen.count / size));
      var listed = /^#list(-\d+)?$/.test(location.hash);
      show(0, false, !listed);
    });
    show(initial, true);
  }

  photomap.listHash = listHash;
  photomap.listPager = listPager;
})(window.photomap);
