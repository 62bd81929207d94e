"""Imjin War (壬辰之戰 / Far East War 1592): Japan vs the Joseon–Ming alliance."""
