// How to play Sticheln, for players (the server's full rules are seeds/sticheln.md).
export default {
  en: `Collect many cards, but not of your **pain colour**. Every card you win scores +1, except cards of your pain colour: each costs its value. Most points after the last deal wins.

## Choosing your pain colour
At the start of each deal everybody puts one card down at the same time. Its colour is your pain colour for the deal, and the card itself already counts against you, so a low card is cheaper. You may change it until everybody has chosen; then all are shown.

## Tricks
- Play any card you like: there is no need to follow colour.
- The first card sets the **led colour**. Every other colour is **trump**, except zeros.
- The highest trump wins the trick; with no trump, the highest card of the led colour. Equal trumps: the one played first wins.
- The winner takes the cards and leads next.

## Tips
- Throw your pain cards into tricks someone else will win.
- High cards of the colour you lead rarely win: others can trump with anything.

Variants (lucky colour, two colours, hidden choice, naming the colour late) change these rules; the table says which are on.`,
  fi: `Kerää paljon kortteja, mutta älä **kipuväriäsi**. Jokainen voittamasi kortti on +1, paitsi kipuvärisi kortit: ne maksavat arvonsa. Eniten pisteitä viimeisen jaon jälkeen kerännyt voittaa.

## Kipuvärin valinta
Jokaisen jaon alussa kaikki laittavat yhtä aikaa yhden kortin alas. Sen väri on kipuvärisi tässä jaossa, ja kortti lasketaan jo sinua vastaan, joten pieni kortti on halvempi. Voit vaihtaa sitä, kunnes kaikki ovat valinneet; sitten kaikki näytetään.

## Tikit
- Pelaa mikä tahansa kortti: maata ei tarvitse tunnustaa.
- Ensimmäinen kortti määrää **aloitusvärin**. Kaikki muut värit ovat **valttia**, paitsi nollat.
- Suurin valtti voittaa tikin; jos valttia ei ole, aloitusvärin suurin kortti. Tasavalteista ensin pelattu voittaa.
- Voittaja ottaa kortit ja aloittaa seuraavan tikin.

## Vinkkejä
- Heitä kipukorttisi tikkeihin, jotka joku muu voittaa.
- Aloitusvärin suuret kortit voittavat harvoin: muut voivat valtata millä tahansa.

Muunnelmat (onnenväri, kaksi väriä, piilotettu valinta, myöhäinen nimeäminen) muuttavat näitä sääntöjä; pöytä kertoo, mitkä ovat käytössä.`,
};
