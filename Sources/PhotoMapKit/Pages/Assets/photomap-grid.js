// SPDX-License-Identifier: Apache-2.0
/* A cluster's photos as a grid: a modal dialog of their squares, PAGE at a time, each linking to its
   photo's page. Escape or the close button closes it, and the focus goes back to the cluster's marker.
   Only the photos in the timeline's range are shown; a pre-clustered page's photos come from the list
   files that hold them. */
(function (photomap) {
  'use strict';

  var data = photomap.data, element = photomap.element, counted = photomap.counted, safeLink = photomap.safeLink;
  var PAGE = 100;
  var dialog = null, title, grid, status, previous, next, opener = null, shown = [], page = 0, asked = 0;

  function make() {
    dialog = element('dialog', 'grid-dialog');
    dialog.setAttribute('aria-labelledby', 'grid-title');
    var top = element('div', 'grid-top');
    title = element('h2', null);
    title.id = 'grid-title';
    var close = element('button', 'grid-close', 'Close');
    close.type = 'button';
    close.addEventListener('click', function () { dialog.close(); });
    top.appendChild(title);
    top.appendChild(close);
    grid = element('ul', 'grid');
    var nav = element('nav', 'grid-pager');
    nav.setAttribute('aria-label', 'Pages of the photos');
    previous = element('button', null, '\u2039 Previous');
    next = element('button', null, 'Next \u203a');
    previous.type = next.type = 'button';
    previous.setAttribute('data-page', 'previous');
    next.setAttribute('data-page', 'next');
    previous.addEventListener('click', function () { show(page - 1); });
    next.addEventListener('click', function () { show(page + 1); });
    status = element('output', 'grid-status');
    status.setAttribute('aria-live', 'polite');
    [previous, status, next].forEach(function (part) { nav.appendChild(part); });
    [top, grid, nav].forEach(function (part) { dialog.appendChild(part); });
    dialog.addEventListener('close', function () {
      if (opener && opener.isConnected) opener.focus({ preventScroll: true });
      opener = null;
    });
    document.body.appendChild(dialog);
  }

  /* Calls done() once the entries `indices` are at hand (their list files loaded), or done(false). */
  function withIndices(indices, done) {
    var size = data.clusters && data.clusters.listChunk, firsts = {};
    indices.forEach(function (i) { firsts[size ? Math.floor(i / size) : 0] = size ? Math.floor(i / size) * size : 0; });
    var waiting = Object.keys(firsts).length, failed = false;
    Object.keys(firsts).forEach(function (n) {
      photomap.withEntries(firsts[n], firsts[n] + 1, function (loaded) {
        failed = failed || !loaded;
        if (--waiting === 0) done(!failed);
      });
    });
  }

  function square(i) {
    var properties = photomap.entry(i), item = element('li'), link = safeLink(properties.link);
    var anchor = element('a'), image = element('img');
    image.src = safeLink(properties.thumbnail) || data.placeholder;
    image.alt = properties.title;
    image.width = image.height = 75;
    image.loading = 'lazy';
    if (link) anchor.href = link;
    anchor.appendChild(image);
    item.appendChild(anchor);
    return item;
  }

  function show(number) {
    page = Math.max(0, Math.min(number, Math.ceil(shown.length / PAGE) - 1));
    var from = page * PAGE, to = Math.min(shown.length, from + PAGE), items = document.createDocumentFragment();
    shown.slice(from, to).forEach(function (i) { items.appendChild(square(i)); });
    grid.textContent = '';
    grid.appendChild(items);
    grid.scrollTop = 0;
    previous.disabled = page === 0;
    next.disabled = to >= shown.length;
    status.textContent = (from + 1) + '\u2013' + to + ' of ' + shown.length;
    document.body.setAttribute('data-grid-page', String(page + 1));
  }

  /* Opens the grid of the photos `members` (indices in the page), `count` of them in the timeline's
     range, from the marker `from`. */
  photomap.showGrid = function (members, count, from) {
    if (!dialog) make();
    var ask = ++asked;
    opener = from;
    title.textContent = counted(count, 'photo', 'photos');
    grid.textContent = '';
    status.textContent = 'Loading\u2026';
    dialog.showModal();
    withIndices(members, function (loaded) {
      if (ask !== asked) return;
      if (!loaded) {
        status.textContent = 'The photos could not be loaded';
        return;
      }
      shown = members.filter(function (i) { return photomap.timeline.shows(photomap.entry(i).month); });
      title.textContent = counted(shown.length, 'photo', 'photos');
      show(0);
    });
  };
})(window.photomap);
