#!/bin/sh
# Generate configure and the Makefile.in files: ./boot.sh && ./configure && make
set -e
cd "$(dirname "$0")"
autoreconf --install --force
