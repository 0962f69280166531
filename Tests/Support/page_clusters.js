// SPDX-License-Identifier: Apache-2.0
// Runs the page's own clustering (photomap-clusters.js: clustersAt, with projected) under node, for
// the test that holds it to GridClusterer: the functions are taken from the script as it ships, and
// given the rule the page is given (its data.cluster).
//
//   node Tests/Support/page_clusters.js photomap-clusters.js INPUT.json   (INPUT: {"cluster": {...}, "lat": [...], "lon": [...]})
// prints {"0": {"x/y": [[lat, lon, count, index or null], ...]}, ..., "16": {...}}.
'use strict';
const fs = require('fs');

const script = fs.readFileSync(process.argv[2], 'utf8');
const input = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));

/* The source of `function name(...) {...}` in the script, by matching its braces. */
function functionSource(name) {
  const start = script.indexOf('function ' + name + '(');
  if (start < 0) throw new Error(process.argv[2] + ' has no function ' + name);
  let depth = 0;
  for (let i = script.indexOf('{', start); i < script.length; i++) {
    if (script[i] === '{') depth++;
    if (script[i] === '}' && --depth === 0) return script.slice(start, i + 1);
  }
  throw new Error('unbalanced braces in ' + name);
}

/* The line that reads the rule from the page's data. */
const ruleLine = script.split('\n').find((line) => /var CLUSTER_RADIUS\s*=/.test(line));
if (!ruleLine) throw new Error(process.argv[2] + ' no longer reads CLUSTER_RADIUS');

/* Leaflet's EPSG:3857 unproject (L.CRS.EPSG3857: spherical Mercator, R = 6378137, 256 × 2^z pixels). */
const R = 6378137, scale = 0.5 / (Math.PI * R);
const map = {
  unproject(point, zoom) {
    const size = 256 * Math.pow(2, zoom);
    const x = (point[0] / size - 0.5) / scale, y = (point[1] / size - 0.5) / -scale;
    return { lat: (2 * Math.atan(Math.exp(y / R)) - Math.PI / 2) * 180 / Math.PI, lng: x * 180 / Math.PI / R };
  },
};
const data = { cluster: input.cluster };
const entries = { lat: input.lat, lon: input.lon };
const clustersAt = new Function('data', 'entries', 'map', [
  ruleLine, functionSource('projected'), functionSource('clustersAt'),
  'return { clustersAt: clustersAt, lastZoom: LAST_ZOOM };',
].join('\n'))(data, entries, map);

const located = input.lat.map((_, i) => i);
const byZoom = {};
for (let z = 0; z <= clustersAt.lastZoom; z++) byZoom[z] = clustersAt.clustersAt(z, located);
process.stdout.write(JSON.stringify(byZoom));
