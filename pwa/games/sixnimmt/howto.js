// How to play 6 nimmt!, for players (the server's full rules are seeds/sixnimmt.md).
export default {
  en: `Collect as few **bullheads** as you can. Every card shows its bullheads (1 to 7); the game ends after the round in which someone reaches the limit shown on the table, and the fewest bullheads wins.

## A turn
- Everybody picks one card from their hand at the same time. You may change your pick until the last player has chosen.
- Then all cards are shown and placed one by one, lowest first.
- A card goes to the end of the row whose last card is the highest one still below it.
- The **sixth card** in a row takes the five cards before it: they are your bullheads, and your card starts the row afresh.
- A card lower than every row's last card cannot be placed: its player **takes a row** of their choice and the card starts it.

## Tips
- A card just above a row's end is safe; one far above it may land sixth.
- Taking a short row early can be cheaper than being forced later.
- Ten turns make a round; then everyone gets ten new cards.`,
  fi: `Kerää mahdollisimman vähän **häränpäitä**. Jokaisessa kortissa näkyvät sen häränpäät (1–7). Peli päättyy sen kierroksen jälkeen, jolla joku saavuttaa pöydässä näkyvän rajan, ja vähiten häränpäitä kerännyt voittaa.

## Vuoro
- Kaikki valitsevat kädestään yhden kortin yhtä aikaa. Valintaa voi vaihtaa, kunnes viimeinenkin on valinnut.
- Sitten kortit näytetään ja asetetaan yksi kerrallaan pienimmästä alkaen.
- Kortti menee sen rivin perään, jonka viimeinen kortti on suurin sitä pienempi.
- Rivin **kuudes kortti** vie viisi edellistä: ne ovat häränpäitäsi, ja korttisi aloittaa rivin alusta.
- Jos kortti on pienempi kuin jokaisen rivin viimeinen, sen pelaaja **ottaa valitsemansa rivin**, ja kortti aloittaa sen.

## Vinkkejä
- Kortti heti rivin pään yläpuolella on turvassa; kaukana yläpuolella oleva voi joutua kuudenneksi.
- Lyhyen rivin ottaminen ajoissa voi tulla halvemmaksi kuin pakon edessä myöhemmin.
- Kierroksessa on kymmenen vuoroa; sitten kaikki saavat kymmenen uutta korttia.`,
};
