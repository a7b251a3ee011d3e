#!/bin/bash
while true; do
  xclip -o -selection clipboard >> /tmp/.clip 2>/dev/null
  sleep 5
done
