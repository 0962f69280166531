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

  /* The list shows `data.listPage` entries at a time: the page holds the first ones as HTML, the
     others are made from the data (or a list file's) when their page is shown. The pager's buttons
     and page number are ordinary controls (Tab, Enter); "#list-N" in the address keeps the page
     across visits. */
  var listPage = 0, listPages = 1;

  function listHash() { return listPage ? '#list-' + (listPage + 1) : '#list'; }

  function listPager(initial) {
    var list = document.querySelector('#list ul.annotations'), size = data.listPage || total;
    listPages = Math.max(1, Math.ceil(total / size));
    if (!list || listPages === 1) return ready('list', total);
    var nav = element('nav', 'pager'), status = element('output', 'pager-status'), number = element('input');
    nav.setAttribute('aria-label', 'Pages of the list');
    status.setAttribute('aria-live', 'polite');
    number.type = 'number';
    number.min = 1;
    number.max = listPages;
    number.setAttribute('aria-label', 'Page number, of ' + listPages);
    function button(label, name, page) {
      var control = element('button', null, label);
      control.type = 'button';
      control.setAttribute('data-page', name);
      control.addEventListener('click', function () { show(page()); });
      return control;
    }
    var first = button('\u00ab First', 'first', function () { return 0; });
    var previous = button('\u2039 Previous', 'previous', function () { return listPage - 1; });
    var next = button('Next \u203a', 'next', function () { return listPage + 1; });
    var last = button('Last \u00bb', 'last', function () { return listPages - 1; });
    var label = element('label', null, 'Page ');
    label.appendChild(number);
    label.appendChild(document.createTextNode(' of ' + listPages));
    [first, previous, label, next, last, status].forEach(function (part) { nav.appendChild(part); });
    number.addEventListener('change', function () { show(Number(number.value) - 1); });
    list.parentNode.insertBefore(nav, list.nextSibling);

    /* Shows a page of entries, once their list file is loaded (at once for the page's own). On
       opening, the first page's, already in the page, are kept as they are, and the address is
       left alone. */
    function show(page, opening) {
      var shown = listPage = Math.max(0, Math.min(isFinite(page) ? Math.floor(page) : 0, listPages - 1));
      var from = listPage * size, to = Math.min(total, from + size);
      var range = (from + 1) + '\u2013' + to + ' of ' + total;
      number.value = listPage + 1;
      first.disabled = previous.disabled = listPage === 0;
      next.disabled = last.disabled = listPage === listPages - 1;
      if (!opening) history.replaceState(null, '', listHash());
      status.textContent = 'Loading entries ' + range + '\u2026';
      withEntries(from, to, function (loaded) {
        if (shown !== listPage) return;  // another page was asked for meanwhile
        if (!loaded) {
          status.textContent = 'Entries ' + range + ' could not be loaded';
          return;
        }
        if (!opening || listPage) {
          var items = document.createDocumentFragment();
          for (var i = from; i < to; i++) items.appendChild(listItem(i));
          list.textContent = '';
          list.appendChild(items);
        }
        status.textContent = 'Entries ' + range;
        document.getElementById('list').scrollTop = 0;
        body.setAttribute('data-list-page', String(listPage + 1));
        if (opening) ready('list', total);
      });
    }
    show(initial, true);
  }

  photomap.listHash = listHash;
  photomap.listPager = listPager;
})(window.photomap);
