#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes a throwaway certificate authority and a certificate for 127.0.0.1 and localhost signed by
# it, for the TLS servers of the tests and benchmarks (never for production, which keeps the
# system's CAs). Usage: Tests/Support/make_test_ca.sh DIR  ->  DIR/ca.pem, DIR/server.pem, DIR/server.key
set -euo pipefail
out=${1:?usage: make_test_ca.sh DIR}
mkdir -p "$out"
cd "$out"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=photomap test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" \
    -keyout ca.key -out ca.pem 2> /dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2> /dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext \
    -out server.pem 2> /dev/null
rm -f server.csr server.ext ca.srl
