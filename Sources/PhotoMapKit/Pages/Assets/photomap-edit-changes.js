// SPDX-License-Identifier: Apache-2.0
/* The owner's location changes, shared by the photo page's editor (photomap-edit.js) and the list and
   map pages' (photomap-edit-many.js). Whether the viewer is the owner is asked of /api/session once;
   nothing is offered to anyone else. Each change is a POST /api/photos/locations with the session's
   CSRF token, and the last HISTORY changes can be undone: an undo is a POST {"undo": EDIT} naming the
   edit as the server's answer did, and the server puts back what it recorded before it (each photo's
   location and where that came from: its own GPS, a track, a sidecar, or none). */
(function (photomap) {
  'use strict';

  var api = photomap.body.getAttribute('data-api'), HISTORY = 20;
  var owner = null, waiting = null;

  /* Sends `json` to POST /api/photos/locations, calling done(status, answer). */
  function post(csrf, json, done) {
    var request = new XMLHttpRequest();
    request.open('POST', api + '/photos/locations');
    request.responseType = 'json';
    request.setRequestHeader('Content-Type', 'application/json');
    request.setRequestHeader('X-CSRF-Token', csrf);
    request.onload = function () { done(request.status, request.response); };
    request.onerror = function () { done(0, null); };
    request.send(JSON.stringify(json));
  }

  function failure(status, answer) {
    if (answer && answer.error) return answer.error;
    return status ? 'the server answered ' + status : 'the server did not answer';
  }

  /* The body of an edit: `edit` ({latitude, longitude}, {like}, {clear: true}) for the photos `ids`. */
  function body(ids, edit) {
    var json = { photos: ids };
    Object.keys(edit).forEach(function (key) { json[key] = edit[key]; });
    return json;
  }

  /* The owner's changes, sent with the token `csrf`. One at a time: a change asked for while another
     is on its way is refused (the page says so), so that the history stays in the order made. */
  function changes(csrf) {
    var history = [], listeners = [], busy = false;

    function said() { listeners.forEach(function (listener) { listener(history.length); }); }

    return {
      /* Puts the photos `ids` where `edit` says; done(error, the photos as they now are). */
      apply: function (ids, edit, done) {
        if (busy) return done('wait until the last change is saved', null);
        busy = true;
        post(csrf, body(ids, edit), function (status, answer) {
          busy = false;
          if (status !== 200 || !answer || !answer.photos) return done(failure(status, answer), null);
          if (answer.edit) {
            history.push(answer.edit);
            if (history.length > HISTORY) history.shift();
          }
          said();
          done(null, answer.photos);
        });
      },
      /* Takes back the last change; done(error, the photos put back). A change the server no longer
         keeps, or whose photos changed since (404, 409), cannot be undone and is dropped; one that did
         not reach it stays to be undone. */
      undo: function (done) {
        if (busy) return done('wait until the last change is saved', []);
        var last = history.pop();
        if (!last) return done('there is nothing to undo', []);
        busy = true;
        post(csrf, { undo: last }, function (status, answer) {
          busy = false;
          if (status !== 200 || !answer || !answer.photos) {
            if (status !== 404 && status !== 409) history.push(last);
            said();
            return done(failure(status, answer), []);
          }
          said();
          done(null, answer.photos);
        });
      },
      /* How many changes can be undone. */
      count: function () { return history.length; },
      /* Calls listener(count) each time a change is made or undone. */
      onChange: function (listener) { listeners.push(listener); }
    };
  }

  /* Calls then(changes) when the server says the viewer is the signed-in owner; never otherwise. */
  photomap.forOwner = function (then) {
    if (!api) return;
    if (owner) return then(owner);
    if (waiting) return waiting.push(then);
    waiting = [then];
    var request = new XMLHttpRequest();
    request.open('GET', api + '/session');
    request.responseType = 'json';
    request.onload = function () {
      var session = request.response;
      if (request.status !== 200 || !session || session.role !== 'owner' || !session.csrf) return;
      owner = changes(session.csrf);
      waiting.forEach(function (callback) { callback(owner); });
    };
    request.send();
  };
})(window.photomap);
