/* The owner's location changes, shared by the photo page's editor (photomap-edit.js) and the list and
   map pages' (photomap-edit-many.js). Whether the viewer is the owner is asked of /api/session once;
   nothing is offered to anyone else. Each change is a POST /api/photos/locations with the session's
   CSRF token, and the last HISTORY changes can be undone: an undo is POSTs too, putting the photos back
   exactly where the server's answer said they were before ("before"), and removing the location of
   those that had none. */
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

  /* The edits that put `photos` (an answer's "before") back: one per place they were at, in their
     order, and one removing the location of those that had none. */
  function restoring(photos) {
    var edits = [], byPlace = {};
    photos.forEach(function (photo) {
      var none = photo.latitude === null || photo.longitude === null;
      var key = none ? 'none' : photo.latitude + ',' + photo.longitude;
      if (!byPlace[key]) {
        byPlace[key] = { ids: [], edit: none ? { clear: true } : { latitude: photo.latitude, longitude: photo.longitude } };
        edits.push(byPlace[key]);
      }
      byPlace[key].ids.push(photo.id);
    });
    return edits;
  }

  /* The owner's changes, sent with the token `csrf`. One at a time: a change asked for while another
     is on its way is refused (the page says so), so that the history stays in the order made. */
  function changes(csrf) {
    var history = [], listeners = [], busy = false;

    function said() { listeners.forEach(function (listener) { listener(history.length); }); }

    function kept(before) {
      history.push(before);
      if (history.length > HISTORY) history.shift();
    }

    return {
      /* Puts the photos `ids` where `edit` says; done(error, the photos as they now are). */
      apply: function (ids, edit, done) {
        if (busy) return done('wait until the last change is saved', null);
        busy = true;
        post(csrf, body(ids, edit), function (status, answer) {
          busy = false;
          if (status !== 200 || !answer || !answer.photos) return done(failure(status, answer), null);
          if (answer.changed > 0 && answer.before) kept(answer.before);
          said();
          done(null, answer.photos);
        });
      },
      /* Takes back the last change; done(error, the photos put back so far). What could not be put
         back stays to be undone. */
      undo: function (done) {
        if (busy) return done('wait until the last change is saved', []);
        var last = history.pop();
        if (!last) return done('there is nothing to undo', []);
        var edits = restoring(last), answered = [];
        busy = true;
        (function next() {
          var step = edits[0];
          if (!step) {
            busy = false;
            said();
            return done(null, answered);
          }
          post(csrf, body(step.ids, step.edit), function (status, answer) {
            if (status !== 200 || !answer || !answer.photos) {
              busy = false;
              var left = {};
              edits.forEach(function (edit) { edit.ids.forEach(function (id) { left[id] = true; }); });
              kept(last.filter(function (photo) { return left[photo.id]; }));
              said();
              return done(failure(status, answer), answered);
            }
            answered = answered.concat(answer.photos);
            edits.shift();
            next();
          });
        })();
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
