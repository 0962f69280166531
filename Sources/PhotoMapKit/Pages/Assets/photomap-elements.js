// SPDX-License-Identifier: Apache-2.0
/* The elements the page scripts make. Text only ever enters the DOM through textContent; links only
   when they are relative or http(s). */
(function (photomap) {
  'use strict';

  function safeLink(link) {
    if (typeof link !== 'string') return null;
    link = link.trim();
    // Backslashes and control characters have no place in links photomap writes.
    if (link === '' || /[\\\u0000-\u001f]/.test(link)) return null;
    if (/^https?:\/\//i.test(link)) return link;
    // Relative links only: no scheme (javascript:, data:), no protocol-relative //host.
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.indexOf('//') === 0) return null;
    return link;
  }

  /* An absolute http(s) link, or null: credits link only out to the web. */
  function webLink(link) {
    link = safeLink(link);
    return link && /^https?:\/\//i.test(link) ? link : null;
  }

  /* "1 photo", "2 photos": as Quantity.words says counts in the pages' HTML. */
  function counted(count, one, many) {
    return count + ' ' + (count === 1 ? one : many);
  }

  /* What a marker, callout or list entry is, in one line for a screen reader: title, subtitle, photos. */
  function spoken(properties) {
    var parts = [properties.title];
    if (properties.subtitle) parts.push(properties.subtitle);
    if (properties.count) parts.push(counted(properties.count, 'photo', 'photos'));
    return parts.join(', ');
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* An element with its attributes (the editors' forms and boxes). */
  function made(tag, className, text, attributes) {
    var node = element(tag, className, text);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  }

  /* A plain button (not a form's submit). */
  function button(className, text, attributes) {
    return made('button', className, text, Object.assign({ type: 'button' }, attributes || {}));
  }

  /* A photo's owner, licence and link back to its page on Flickr, as Flickr's rules ask. */
  function creditLine(properties, tag, className) {
    if (properties.kind !== 'photo') return null;
    var line = element(tag || 'div', className || 'callout-credit'), parts = [];
    if (properties.owner) parts.push(document.createTextNode('by ' + properties.owner));
    if (properties.license) {
      var licence = webLink(properties.licenseURL);
      if (licence) {
        var deed = element('a', null, properties.license);
        deed.href = licence;
        deed.rel = 'license noopener noreferrer';
        parts.push(deed);
      } else {
        parts.push(document.createTextNode(properties.license));
      }
    }
    var flickr = webLink(properties.flickr);
    if (flickr) {
      var back = element('a', 'flickr', 'View on Flickr');
      back.href = flickr;
      back.rel = 'noopener';
      parts.push(back);
    }
    if (!parts.length) return null;
    parts.forEach(function (part, index) {
      if (index) line.appendChild(document.createTextNode(' \u00b7 '));
      line.appendChild(part);
    });
    return line;
  }

  photomap.safeLink = safeLink;
  photomap.counted = counted;
  photomap.spoken = spoken;
  photomap.element = element;
  photomap.made = made;
  photomap.button = button;
  photomap.creditLine = creditLine;
})(window.photomap);
