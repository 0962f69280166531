#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Local image host over TLS speaking HTTP/2 (and HTTP/1.1 to clients whose ALPN asks for it), with
// faults, for the thumbnail engine's tests and the prefetch benchmark. Node's http2 module holds
// hundreds of concurrent streams on one connection, which Python's servers do not.
//
// Usage:
//   node Tests/Support/h2_image_server.js --root DIR --cert server.pem --key server.key [--port 0]
//                                         [--delay-ms N] [--http1] [--no-stdin-watch]
// Binds 127.0.0.1 only, prints "PORT <n>" once listening, and exits when stdin reaches EOF (unless
// --no-stdin-watch) or on SIGTERM. --delay-ms delays every answer (a CDN's round trip) without holding any thread; --http1
// offers only HTTP/1.1 (TLS without h2 in ALPN), for comparisons at equal connection counts.
//
// URL form: [/t/{tag}]/{scenario}/{path under DIR}, where scenario is one of
//   ok                  the file as is
//   slow                the file after 100 ms
//   rst                 headers and half the body, then RST_STREAM (INTERNAL_ERROR) on that stream
//   short               full Content-Length, half the body, then the stream ends cleanly
//   goaway/{token}      first request for token: headers and half the body, then GOAWAY and the
//                       connection closed; later ones like ok
//   status503           503 with a small HTML page
// Control: GET /_count?path=/ok/a/b.png -> {"count": n};  GET /_counts -> {path: n};  /_reset;
//   GET /_tag?tag=T -> {"requests": n, "connections": distinct connections, "http2": requests over
//   HTTP/2, "maxInFlight": most requests open at once} for the requests under /t/T/.
'use strict';

const fs = require('fs');
const http2 = require('http2');
const https = require('https');
const path = require('path');

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 && index + 1 < process.argv.length ? process.argv[index + 1] : fallback;
}

const root = fs.realpathSync(option('--root', '.'));
const delay = Number(option('--delay-ms', '0'));
const counts = new Map();
const tokens = new Set();
const tags = new Map();
let nextConnection = 0;

function tagged(name) {
  if (!tags.has(name)) tags.set(name, { requests: 0, connections: new Set(), http2: 0, open: 0, maxInFlight: 0 });
  return tags.get(name);
}

const types = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

/** The real path of a regular file under root named by URL segments, or null. */
function resolveFile(segments) {
  if (!segments.length || segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0/]/.test(s))) return null;
  let candidate;
  try {
    candidate = fs.realpathSync(path.join(root, ...segments));
  } catch (error) {
    return null;
  }
  if (path.relative(root, candidate).startsWith('..') || !fs.statSync(candidate).isFile()) return null;
  return candidate;
}

function sendJSON(stream, object) {
  const body = Buffer.from(JSON.stringify(object));
  stream.respond({ ':status': 200, 'content-type': 'application/json', 'content-length': body.length });
  stream.end(body);
}

function sendHTML(stream, status, text) {
  const body = Buffer.from(`<!DOCTYPE html><html><body><h1>${text}</h1></body></html>`);
  stream.respond({ ':status': status, 'content-type': 'text/html', 'content-length': body.length });
  stream.end(body);
}

function answer(stream, headers, connection, isHTTP2) {
  const url = new URL(headers[':path'], 'https://127.0.0.1');
  if (url.pathname === '/_tag') {
    const tag = tagged(url.searchParams.get('tag'));
    return sendJSON(stream, { requests: tag.requests, connections: tag.connections.size, http2: tag.http2,
      maxInFlight: tag.maxInFlight });
  }
  if (url.pathname === '/_count') return sendJSON(stream, { count: counts.get(url.searchParams.get('path')) || 0 });
  if (url.pathname === '/_counts') return sendJSON(stream, Object.fromEntries(counts));
  if (url.pathname === '/_reset') {
    counts.clear();
    tokens.clear();
    return sendJSON(stream, {});
  }
  counts.set(url.pathname, (counts.get(url.pathname) || 0) + 1);
  let segments;
  try {
    segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  } catch (error) {
    return sendHTML(stream, 400, 'Bad Request');
  }
  let scenario = segments.shift();
  if (scenario === 't' && segments.length > 1) {
    const tag = tagged(segments.shift());
    tag.requests += 1;
    tag.connections.add(connection);
    if (isHTTP2) tag.http2 += 1;
    tag.open += 1;
    tag.maxInFlight = Math.max(tag.maxInFlight, tag.open);
    const close = () => { tag.open -= 1; };
    stream.once('close', close);
    scenario = segments.shift();
  }
  if (scenario === 'slow') {
    return setTimeout(() => { if (!stream.destroyed) answer(stream, { ':path': '/ok/' + segments.join('/') }, connection, isHTTP2); }, 100);
  }
  if (scenario === 'goaway') {
    const token = segments.shift();
    scenario = tokens.has(token) ? 'ok' : 'goaway';
    tokens.add(token);
  }
  if (scenario === 'status503') return sendHTML(stream, 503, 'Service Unavailable');
  const file = resolveFile(segments);
  if (!file || !['ok', 'rst', 'short', 'goaway'].includes(scenario)) return sendHTML(stream, 404, 'Not Found');
  const data = fs.readFileSync(file);
  stream.respond({ ':status': 200, 'content-type': types[path.extname(file)] || 'application/octet-stream',
    'content-length': data.length });
  if (scenario === 'ok') return stream.end(data);
  const half = data.subarray(0, data.length >> 1);
  if (scenario === 'short') return stream.end(half);
  stream.write(half, () => {
    if (scenario === 'rst') return stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    stream.session.goaway(http2.constants.NGHTTP2_INTERNAL_ERROR);
    stream.session.destroy();
  });
}

const tls = { cert: fs.readFileSync(option('--cert')), key: fs.readFileSync(option('--key')) };
const server = process.argv.includes('--http1')
  ? https.createServer({ ...tls, keepAliveTimeout: 60000 })
  : http2.createSecureServer({ ...tls, allowHTTP1: true, settings: { maxConcurrentStreams: 1000 } });

function onRequest(stream, headers) {
  stream.on('error', () => {});
  if (stream.session.photomapConnection === undefined) stream.session.photomapConnection = nextConnection++;
  const connection = stream.session.photomapConnection;
  if (delay > 0) setTimeout(() => { if (!stream.destroyed) answer(stream, headers, connection, true); }, delay);
  else answer(stream, headers, connection, true);
}

if (!process.argv.includes('--http1')) server.on('stream', onRequest);
// HTTP/1.1 clients arrive as request/response pairs: answer them through the same code.
server.on('request', (request, response) => {
  if (request.httpVersion === '2.0') return;
  const shim = {
    destroyed: false,
    once(event, listener) { response.once('close', listener); },
    session: { goaway() {}, destroy() { request.socket.destroy(); } },
    on() {},
    respond(headers) {
      response.statusCode = headers[':status'];
      for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) response.setHeader(name, value);
    },
    write(data, done) { response.write(data, done); },
    end(data) { response.end(data); },
    close() { request.socket.destroy(); },
  };
  const headers = { ':path': request.url };
  if (request.socket.photomapConnection === undefined) request.socket.photomapConnection = nextConnection++;
  const connection = request.socket.photomapConnection;
  if (delay > 0) setTimeout(() => answer(shim, headers, connection, false), delay);
  else answer(shim, headers, connection, false);
});
server.on('sessionError', () => {});

server.listen(Number(option('--port', '0')), '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});
if (!process.argv.includes('--no-stdin-watch')) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
process.on('SIGTERM', () => process.exit(0));
